/**
 * A JSON value (go-json-scan.ts) → the plain object the generated `fromJSON` reads, following the
 * reference gateway's jsonpb (golang/protobuf 1.3 `Unmarshaler{AllowUnknownFields: true}`) field by
 * field, with its error texts.
 *
 * Contract (pure). Per field (proto name or lowerCamelCase name; the latter wins when both are
 * given; a key given twice: the last one counts; unknown keys ignored; `null` = not set):
 * - int64/uint64/int32/uint32: a JSON number, or a string holding one (its quotes are stripped and
 *   the rest read as a JSON document, escapes untouched, like jsonpb). The literal must be an
 *   integer in range (`1e3`, `1.0`, `-1` for uint64 are refused:
 *   `json: cannot unmarshal number 1e3 into Go value of type int64`). Output: exact decimal string.
 * - bool: `true`/`false` only; string: a JSON string; bytes: a string in Go's base64 (go-base64.ts)
 *   or an array of numbers 0..255; output: canonical base64.
 * - enum: a name (the raw text between the quotes, looked up as is) or an int32 number.
 * - message: an object; repeated: an array (a `null` element is the zero value / empty message).
 * - oneof members: present (even as `null`) → that case is set (to the zero value for `null`).
 * - any other JSON kind: `json: cannot unmarshal <kind> into Go value of type <Go type>`.
 * An enum number outside the enum's names is kept as that number, as jsonpb keeps it (the
 * generated `fromJSON` would read it as UNRECOGNIZED): `restoreEnumNumbers` puts the numbers back
 * into the built message.
 */
import { decodeGoBase64, WELL_FORMED_BASE64 } from './go-base64.js';
import { scanJson, type JsonValue } from './go-json-scan.js';
import { goQuote } from './go-quote.js';
import type { FieldKind, FieldSchema, MessageSchema } from './jsonpb-schema.js';

export type Converted = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

class JsonpbError extends Error {}

const MAP_TYPE = 'map[string]json.RawMessage';
const SLICE_TYPE = '[]json.RawMessage';

const RANGES: Readonly<Record<'int64' | 'uint64' | 'int32' | 'uint32', readonly [bigint, bigint]>> = {
  int64: [-(1n << 63n), (1n << 63n) - 1n],
  uint64: [0n, (1n << 64n) - 1n],
  int32: [-(1n << 31n), (1n << 31n) - 1n],
  uint32: [0n, (1n << 32n) - 1n],
};

function kindName(v: JsonValue): string {
  return v.kind;
}

function cannot(what: string, goType: string): JsonpbError {
  return new JsonpbError(`json: cannot unmarshal ${what} into Go value of type ${goType}`);
}

/** Converts the top-level value of a request body into `fromJSON` input. */
export function convertMessage(schema: MessageSchema, v: JsonValue): Converted {
  try {
    if (v.kind === 'null') return { ok: true, value: {} };
    if (v.kind !== 'object') throw cannot(kindName(v), MAP_TYPE);
    return { ok: true, value: readMessage(schema, v) };
  } catch (err) {
    if (err instanceof JsonpbError) return { ok: false, message: err.message };
    throw err;
  }
}

function readMessage(schema: MessageSchema, v: Extract<JsonValue, { kind: 'object' }>): Record<string, unknown> {
  const byKey = new Map<string, JsonValue>(v.entries);
  const out: Record<string, unknown> = {};
  const visit = (f: FieldSchema): void => {
    const given = byKey.get(f.jsonName) ?? byKey.get(f.name);
    if (given === undefined) return;
    const value = readField(f, given);
    if (value !== undefined) out[f.name] = value;
    else if (f.oneof) out[f.name] = zeroValue(f.kind);
  };
  for (const f of schema.fields) if (!f.oneof) visit(f);
  for (const f of schema.fields) if (f.oneof) visit(f);
  return out;
}

function zeroValue(kind: FieldKind): unknown {
  switch (kind.type) {
    case 'message':
      return {};
    case 'enum':
      return 0;
    case 'bool':
      return false;
    case 'string':
    case 'bytes':
      return '';
    default:
      return '0';
  }
}

/** One field's value; undefined = not set. */
function readField(f: FieldSchema, v: JsonValue): unknown {
  if (!f.repeated) return readSingle(f.kind, v);
  if (v.kind === 'null') return undefined;
  if (v.kind !== 'array') throw cannot(kindName(v), SLICE_TYPE);
  return v.items.map((item) => readSingle(f.kind, item) ?? zeroValue(f.kind));
}

function readSingle(kind: FieldKind, v: JsonValue): unknown {
  if (v.kind === 'null') return undefined;
  switch (kind.type) {
    case 'message':
      if (v.kind !== 'object') throw cannot(kindName(v), MAP_TYPE);
      return readMessage(kind.message(), v);
    case 'enum':
      return readEnum(kind, v);
    case 'bool':
      if (v.kind !== 'bool') throw cannot(kindName(v), 'bool');
      return v.value;
    case 'string':
      if (v.kind !== 'string') throw cannot(kindName(v), 'string');
      return v.value;
    case 'bytes':
      return readBytes(v);
    default:
      return readInteger(kind.type, v);
  }
}

function readEnum(kind: Extract<FieldKind, { type: 'enum' }>, v: JsonValue): number {
  if (v.kind === 'string') {
    if (!Object.hasOwn(kind.values, v.raw)) throw new JsonpbError(`unknown value ${goQuote(v.raw)} for enum ${kind.goType}`);
    return kind.values[v.raw]!;
  }
  if (v.kind !== 'number') throw cannot(kindName(v), kind.goType);
  return Number(integerLiteral(v.text, 'int32', kind.goType));
}

function readInteger(type: 'int64' | 'uint64' | 'int32' | 'uint32', v: JsonValue): string | undefined {
  let value = v;
  if (v.kind === 'string') {
    // jsonpb drops the quotes and reads the rest as a JSON document (escapes untouched).
    const inner = scanJson(v.raw, 'document');
    if (!inner.ok) throw new JsonpbError(inner.message);
    value = inner.value!;
  }
  if (value.kind === 'null') return undefined;
  if (value.kind !== 'number') throw cannot(kindName(value), type);
  return integerLiteral(value.text, type, type);
}

/** Go's `strconv.ParseInt/ParseUint(text, 10, 64)` plus the target's range; decimal string out. */
function integerLiteral(text: string, type: keyof typeof RANGES, goType: string): string {
  const signed = type === 'int64' || type === 'int32';
  if (!(signed ? /^-?\d+$/ : /^\d+$/).test(text)) throw cannot(`number ${text}`, goType);
  const n = BigInt(text);
  const [min, max] = RANGES[type];
  if (n < min || n > max) throw cannot(`number ${text}`, goType);
  return n.toString();
}

function readBytes(v: JsonValue): string {
  if (v.kind === 'string') {
    if (WELL_FORMED_BASE64.test(v.value)) return v.value; // read alike by Go and by fromJSON
    const decoded = decodeGoBase64(v.value);
    if (!decoded.ok) throw new JsonpbError(decoded.message);
    return decoded.bytes.toString('base64');
  }
  if (v.kind === 'array') {
    // Go decodes a JSON array into []byte element by element.
    const bytes = v.items.map((item) => {
      if (item.kind === 'null') return 0;
      if (item.kind !== 'number') throw cannot(kindName(item), 'uint8');
      if (!/^\d+$/.test(item.text) || BigInt(item.text) > 255n) throw cannot(`number ${item.text}`, 'uint8');
      return Number(item.text);
    });
    return Buffer.from(bytes).toString('base64');
  }
  throw cannot(kindName(v), '[]uint8');
}

/**
 * Writes the converted enum numbers over what `fromJSON` built (which turns unknown numbers into
 * UNRECOGNIZED), at every depth. `message` is the generated message built from `converted`; its
 * property names are the fields' lowerCamelCase names, a oneof member sits in `{ $case, value }`.
 */
export function restoreEnumNumbers(schema: MessageSchema, converted: unknown, message: unknown): void {
  if (typeof converted !== 'object' || converted === null || typeof message !== 'object' || message === null) return;
  const src = converted as Record<string, unknown>;
  const dst = message as Record<string, unknown>;
  for (const f of schema.fields) {
    const value = src[f.name];
    if (value === undefined || (f.kind.type !== 'enum' && f.kind.type !== 'message')) continue;
    let holder: Record<string, unknown> = dst;
    let key = f.jsonName;
    if (f.oneof) {
      const group = Object.values(dst).find(
        (v): v is Record<string, unknown> => typeof v === 'object' && v !== null && (v as { $case?: unknown }).$case === f.jsonName,
      );
      if (group === undefined) continue;
      holder = group;
      key = 'value';
    }
    if (f.kind.type === 'enum') {
      holder[key] = Array.isArray(value) ? [...(value as number[])] : value;
      continue;
    }
    const sub = f.kind.message();
    const built = holder[key];
    if (f.repeated && Array.isArray(value) && Array.isArray(built)) value.forEach((v, i) => restoreEnumNumbers(sub, v, built[i]));
    else restoreEnumNumbers(sub, value, built);
  }
}
