/**
 * Structural validation of a document against the typebox schema: typebox's errors turned into
 * `{ path, message }` with messages a user can act on (the accepted values, the expected form),
 * plus unknown fields (the API server prunes them silently; we name them, with the known ones,
 * so a typo such as `verison` does not go unnoticed). Pure.
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { QUANTITY_PATTERN, RETENTION_PATTERN, VERSION_PATTERN } from './schema-spec.js';
import { joinPath, pointerToPath, type ValidationError } from './validation-error.js';

const PATTERN_TEXT: Readonly<Record<string, string>> = {
  [VERSION_PATTERN]: 'must be a version 3.<minor>.<patch> with minor 2 to 5, e.g. 3.5.17',
  [QUANTITY_PATTERN]: 'must be a Kubernetes quantity such as 1Gi, 500Mi or 10G',
  [RETENTION_PATTERN]: 'must be a number of hours (1) or a duration such as 30m or 1h30m',
  '^[0-9a-f]{64}$': 'must be 64 lowercase hex digits (SHA-256)',
  '^3\\.[2-9]$': 'must be a minor version such as 3.5',
};

const TYPE_TEXT: Readonly<Record<string, string>> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

type Node = Readonly<Record<string, unknown>>;
const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

interface TypeboxError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message: string;
}

function describe(e: TypeboxError): string {
  const p = e.params;
  switch (e.keyword) {
    case 'enum':
      return `must be one of: ${(p['allowedValues'] as readonly unknown[]).map((v) => String(v)).join(', ')}`;
    case 'pattern':
      return PATTERN_TEXT[String(p['pattern'])] ?? `must match ${String(p['pattern'])}`;
    case 'minimum':
      return `must be at least ${String(p['limit'])}`;
    case 'minLength':
      return 'must not be empty';
    case 'type':
      return `must be ${TYPE_TEXT[String(p['type'])] ?? String(p['type'])}`;
    case 'format':
      return p['format'] === 'date-time' ? 'must be an RFC 3339 time' : `must be in format ${String(p['format'])}`;
    case 'anyOf':
      return 'must be an integer or a string';
    default:
      return e.message;
  }
}

/**
 * Errors of `value` against `schema`; paths are prefixed with `base`. One message per field.
 * Objects and lists are walked here, one property / item at a time, because typebox stops
 * collecting after a few errors per call (a process-wide setting we leave alone).
 */
export function schemaErrors(schema: TSchema, value: unknown, base: string): ValidationError[] {
  const node = schema as unknown as Node;
  const props = node['properties'];
  if (isObject(props) && isObject(value)) {
    const required = Array.isArray(node['required']) ? (node['required'] as string[]) : [];
    return [
      ...required.filter((k) => !(k in value)).map((k) => ({ path: joinPath(base, k), message: 'is required' })),
      ...Object.keys(value)
        .filter((k) => k in props)
        .flatMap((k) => schemaErrors(props[k] as TSchema, value[k], joinPath(base, k))),
    ];
  }
  if (isObject(node['items']) && Array.isArray(value)) {
    return value.flatMap((v, i) => schemaErrors(node['items'] as TSchema, v, `${base}[${i}]`));
  }
  return leafErrors(schema, value, base);
}

function leafErrors(schema: TSchema, value: unknown, base: string): ValidationError[] {
  const errors = [...Value.Errors(schema, value)] as unknown as TypeboxError[];
  const out: ValidationError[] = [];
  const anyOfAt = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  for (const e of errors) {
    const at = joinPath(base, pointerToPath(e.instancePath));
    if (e.keyword === 'required') {
      for (const name of p(e.params['requiredProperties'])) out.push({ path: joinPath(at, name), message: 'is required' });
      continue;
    }
    // A value outside an int-or-string union fails each branch too: report the union only.
    if (anyOfAt.has(e.instancePath) && e.keyword !== 'anyOf') continue;
    out.push({ path: at, message: describe(e) });
  }
  return dedupe(out);
}

function p(v: unknown): string[] {
  return Array.isArray(v) ? v.map((x) => String(x)) : [];
}

function dedupe(errors: readonly ValidationError[]): ValidationError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.path}\n${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Fields of `value` the schema does not describe (pass-through objects excepted). */
export function unknownFields(schema: unknown, value: unknown, base: string): ValidationError[] {
  if (!isObject(schema) || schema['x-kubernetes-preserve-unknown-fields'] === true) return [];
  const props = schema['properties'];
  if (isObject(props) && isObject(value)) {
    const known = Object.keys(props);
    return Object.entries(value).flatMap(([k, v]) =>
      k in props
        ? unknownFields(props[k], v, joinPath(base, k))
        : [{ path: joinPath(base, k), message: `is not a known field (known: ${known.join(', ')})` }],
    );
  }
  if (isObject(schema['items']) && Array.isArray(value)) {
    return value.flatMap((v, i) => unknownFields(schema['items'], v, `${base}[${i}]`));
  }
  return [];
}
