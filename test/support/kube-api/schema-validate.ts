/**
 * Validation of custom resources against their CRD's OpenAPI v3 schema, with the API server's
 * field paths and messages (`spec.size: Unsupported value: 4: supported values: "1", "3"`,
 * `spec.version: Required value`, `… in body should match '…'`), and the one CEL rule form
 * the operator's CRD uses, `self == oldSelf` (immutability, checked on updates).
 * Formats are not checked; other `x-kubernetes-validations` rules are ignored (README.md).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FieldCause } from './status.js';
import type { Json, JsonObject } from './types.js';
import { canonicalJson } from './canonical.js';

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `/spec/members/0/name` → `spec.members[0].name` */
function fieldOf(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

function show(v: unknown): string {
  return typeof v === 'string' ? `"${v}"` : JSON.stringify(v);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function cause(e: ErrorObject): FieldCause | undefined {
  const field = fieldOf(e.instancePath);
  const p = e.params as Record<string, unknown>;
  const v = e.data;
  switch (e.keyword) {
    case 'required': {
      const missing = String(p.missingProperty);
      return { reason: 'FieldValueRequired', message: 'Required value', field: field === '' ? missing : `${field}.${missing}` };
    }
    case 'enum':
      return { reason: 'FieldValueNotSupported', message: `Unsupported value: ${show(v)}: supported values: ${(p.allowedValues as unknown[]).map((a) => `"${String(a)}"`).join(', ')}`, field };
    case 'type':
      return { reason: 'FieldValueTypeInvalid', message: `Invalid value: "${typeName(v)}": ${field} in body must be of type ${String(p.type)}: "${typeName(v)}"`, field };
    case 'pattern':
      return { reason: 'FieldValueInvalid', message: `Invalid value: ${show(v)}: ${field} in body should match '${String(p.pattern)}'`, field };
    case 'minimum':
      return { reason: 'FieldValueInvalid', message: `Invalid value: ${show(v)}: ${field} in body should be greater than or equal to ${String(p.limit)}`, field };
    case 'maximum':
      return { reason: 'FieldValueInvalid', message: `Invalid value: ${show(v)}: ${field} in body should be less than or equal to ${String(p.limit)}`, field };
    case 'minLength':
      return { reason: 'FieldValueInvalid', message: `Invalid value: ${show(v)}: ${field} in body should be at least ${String(p.limit)} chars long`, field };
    case 'maxLength':
      return { reason: 'FieldValueTooLong', message: `Too long: may not be more than ${String(p.limit)} bytes`, field };
    case 'minItems':
      return { reason: 'FieldValueInvalid', message: `Invalid value: ${typeName(v)}: ${field} in body should have at least ${String(p.limit)} items`, field };
    case 'maxItems':
      return { reason: 'FieldValueTooMany', message: `Too many: must have at most ${String(p.limit)} items`, field };
    case 'anyOf':
    case 'oneOf':
    case 'if':
      return undefined;
    default:
      return { reason: 'FieldValueInvalid', message: `Invalid value: ${show(v)}: ${e.message ?? e.keyword}`, field };
  }
}

/** `self == oldSelf` rules: where they sit (dotted path segments) and their messages. */
function immutableRules(schema: JsonObject, path: string[] = []): { path: string[]; message: string }[] {
  const out: { path: string[]; message: string }[] = [];
  const rules = Array.isArray(schema['x-kubernetes-validations']) ? schema['x-kubernetes-validations'] : [];
  for (const r of rules) {
    if (isObject(r) && typeof r.rule === 'string' && r.rule.replace(/\s+/g, '') === 'self==oldSelf') {
      out.push({ path, message: typeof r.message === 'string' ? r.message : 'Invalid value: failed rule: self == oldSelf' });
    }
  }
  if (isObject(schema.properties)) {
    for (const [k, sub] of Object.entries(schema.properties)) if (isObject(sub)) out.push(...immutableRules(sub, [...path, k]));
  }
  return out;
}

function at(v: Json | undefined, path: readonly string[]): Json | undefined {
  let cur = v;
  for (const p of path) cur = isObject(cur) ? cur[p] : undefined;
  return cur;
}

/** A compiled CRD schema. */
export class SchemaValidator {
  private readonly validate: ValidateFunction;
  private readonly immutable: { path: string[]; message: string }[];

  constructor(schema: JsonObject) {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, verbose: true });
    this.validate = ajv.compile(schema);
    this.immutable = immutableRules(schema);
  }

  /** Field causes of an invalid object (empty when valid); `old` enables transition rules. */
  causes(value: Json, old?: Json): FieldCause[] {
    const out: FieldCause[] = [];
    if (!this.validate(value)) {
      for (const e of this.validate.errors ?? []) {
        const c = cause(e);
        if (c !== undefined && !out.some((o) => o.field === c.field && o.message === c.message)) out.push(c);
      }
    }
    if (old !== undefined) {
      for (const rule of this.immutable) {
        const before = at(old, rule.path);
        const after = at(value, rule.path);
        if (before !== undefined && after !== undefined && canonicalJson(before) !== canonicalJson(after)) {
          out.push({ reason: 'FieldValueInvalid', message: `Invalid value: "${typeName(after)}": ${rule.message}`, field: rule.path.join('.') });
        }
      }
    }
    return out;
  }
}
