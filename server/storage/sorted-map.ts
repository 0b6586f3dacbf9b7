/**
 * An ordered map keyed by byte strings (unsigned byte order), on top of `sorted-btree`,
 * and the byte comparison it uses.
 *
 * `sorted-btree` is a CommonJS module whose class is its `default` export; this file hides
 * that interop detail so the rest of the code can write `newBufferMap<V>()`.
 * `clone()` on the returned tree is O(1) (copy-on-write), which the memory backend uses
 * for consistent views.
 */
import btree from 'sorted-btree';

const BTreeClass = btree.default;

/** The B+ tree type of `sorted-btree`. */
export type SortedMap<K, V> = InstanceType<typeof btree.default<K, V>>;

/** Bytes compared in JS before handing over to Buffer.compare (a native call costs more for short keys). */
const INLINE_BYTES = 16;

/**
 * Unsigned byte-wise order, like Buffer.compare; only the sign of the result is meaningful.
 * Short keys (the common case) are compared in JS, longer common prefixes natively.
 */
export function compareBytes(a: Buffer, b: Buffer): number {
  const n = a.length < b.length ? a.length : b.length;
  const m = n < INLINE_BYTES ? n : INLINE_BYTES;
  for (let i = 0; i < m; i++) {
    const d = a[i] - b[i];
    if (d !== 0) return d;
  }
  if (n > INLINE_BYTES) return Buffer.compare(a, b);
  return a.length - b.length;
}

/** A new empty ordered map from Buffer keys (unsigned byte-wise order) to V. */
export function newBufferMap<V>(): SortedMap<Buffer, V> {
  return new BTreeClass<Buffer, V>(undefined, compareBytes);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A new empty ordered map from string keys to V, in UTF-16 code unit order. For latin1
 * strings made from bytes (`buf.toString('latin1')`, one char per byte) that is unsigned
 * byte order, and such a key costs far less memory than a Buffer.
 */
export function newStringMap<V>(): SortedMap<string, V> {
  return new BTreeClass<string, V>(undefined, compareStrings);
}
