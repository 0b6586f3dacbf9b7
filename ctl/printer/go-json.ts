/**
 * A small writer of JSON text as Go's encoding/json produces it for etcd's gogoproto structs:
 * fields in declaration order, `omitempty` fields dropped when zero/empty, 64-bit integers as
 * plain numbers (never quoted or rounded), bytes as standard base64.
 */
import { goJsonString } from './go-format.js';

export type GoValue = bigint | number | boolean | string | Uint8Array | null | readonly GoValue[] | GoObject;

/** An object: ordered fields; `omit: true` drops the field when its value is empty. */
export interface GoObject {
  readonly fields: readonly GoField[];
}
export interface GoField {
  readonly name: string;
  readonly value: GoValue | undefined;
  readonly omitEmpty: boolean;
}

/** A field kept even when empty. */
export const keep = (name: string, value: GoValue | undefined): GoField => ({ name, value, omitEmpty: false });
/** An `omitempty` field. */
export const omit = (name: string, value: GoValue | undefined): GoField => ({ name, value, omitEmpty: true });
export const obj = (...fields: GoField[]): GoObject => ({ fields });

function isObject(v: GoValue): v is GoObject {
  return typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && !Array.isArray(v);
}

function empty(v: GoValue | undefined): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'bigint') return v === 0n;
  if (typeof v === 'number') return v === 0;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'string') return v === '';
  if (v instanceof Uint8Array) return v.length === 0;
  if (Array.isArray(v)) return v.length === 0;
  return false;
}

export function goJson(v: GoValue | undefined): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'bigint' || typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return goJsonString(v);
  if (v instanceof Uint8Array) return `"${Buffer.from(v).toString('base64')}"`;
  if (Array.isArray(v)) return `[${v.map((x: GoValue) => goJson(x)).join(',')}]`;
  if (isObject(v)) {
    const parts = v.fields.filter((f) => !(f.omitEmpty && empty(f.value))).map((f) => `${goJsonString(f.name)}:${goJson(f.value)}`);
    return `{${parts.join(',')}}`;
  }
  return 'null';
}
