/**
 * An ordered map keyed by byte strings (unsigned byte order), on top of `sorted-btree`.
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

/** A new empty ordered map from Buffer keys (unsigned byte-wise order) to V. */
export function newBufferMap<V>(): SortedMap<Buffer, V> {
  return new BTreeClass<Buffer, V>(undefined, Buffer.compare);
}
