/**
 * Key arguments: strings are UTF-8 encoded, Buffers taken as they are. Range helpers follow
 * etcd's client: the prefix end increments the last byte below 0xff (dropping trailing 0xff
 * bytes; all-0xff or empty → `\0`, i.e. "to the end"); an empty key with `prefix` or
 * `fromKey` means every key (key `\0`, range end `\0`).
 */
export type KeyLike = string | Buffer;

export function toBytes(k: KeyLike): Buffer {
  return typeof k === 'string' ? Buffer.from(k, 'utf8') : k;
}

/** The smallest key greater than every key starting with `prefix`. */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i] += 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

/** Range selection of get/delete/watch. */
export interface RangeSelection {
  /** Explicit range end (exclusive). */
  readonly rangeEnd?: KeyLike;
  /** Every key starting with the key. */
  readonly prefix?: boolean;
  /** Every key greater than or equal to the key. */
  readonly fromKey?: boolean;
}

/** Key and range end as sent on the wire. */
export function resolveRange(key: KeyLike, sel: RangeSelection): { readonly key: Buffer; readonly rangeEnd: Buffer } {
  let k = toBytes(key);
  if (sel.prefix === true) {
    if (k.length === 0) return { key: Buffer.from([0]), rangeEnd: Buffer.from([0]) };
    return { key: k, rangeEnd: prefixEnd(k) };
  }
  if (sel.fromKey === true) {
    if (k.length === 0) k = Buffer.from([0]);
    return { key: k, rangeEnd: Buffer.from([0]) };
  }
  return { key: k, rangeEnd: sel.rangeEnd === undefined ? Buffer.alloc(0) : toBytes(sel.rangeEnd) };
}
