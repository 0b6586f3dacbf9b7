/**
 * The HPACK dynamic table of one decoding context (RFC 7541 §2.3.2, §4).
 *
 * Invariants: `size` (sum of entry sizes, §4.1: name + value octets + 32) ≤ `maxSize`;
 * index 1 is the newest entry; entries leave oldest first. Adding an entry first evicts until
 * it fits (§4.4); an entry larger than `maxSize` empties the table and is not added. Lowering
 * `maxSize` evicts at once (§4.3). Entries are kept as shared, immutable `HeaderField`s
 * (never `neverIndex`), so an indexed reference costs no allocation.
 */
import { fieldSize, type HeaderField } from './header-field.js';

export class DynamicTable {
  /** Ring buffer: entry k (0 = oldest) at (#head + k) & (#ring.length - 1); length a power of 2. */
  #ring: (HeaderField | undefined)[] = new Array<HeaderField | undefined>(16);
  #head = 0;
  #count = 0;
  #size = 0;
  #maxSize: number;

  constructor(maxSize: number) {
    this.#maxSize = maxSize;
  }

  /** Number of entries. */
  get length(): number {
    return this.#count;
  }

  /** Sum of entry sizes (RFC 7541 §4.1). */
  get size(): number {
    return this.#size;
  }

  get maxSize(): number {
    return this.#maxSize;
  }

  /** Entry `index` (1 = newest … length), or undefined when out of range. */
  get(index: number): HeaderField | undefined {
    if (index < 1 || index > this.#count) return undefined;
    return this.#ring[(this.#head + this.#count - index) & (this.#ring.length - 1)];
  }

  /** Inserts `field` as index 1, evicting as §4.4 says. */
  add(field: HeaderField): void {
    const size = fieldSize(field.name, field.value);
    if (size > this.#maxSize) {
      this.#evictTo(0);
      return;
    }
    this.#evictTo(this.#maxSize - size);
    if (this.#count === this.#ring.length) this.#grow();
    this.#ring[(this.#head + this.#count) & (this.#ring.length - 1)] = field;
    this.#count++;
    this.#size += size;
  }

  /** A dynamic table size update (§4.3, §6.3): the caller has checked `maxSize` is allowed. */
  setMaxSize(maxSize: number): void {
    this.#maxSize = maxSize;
    this.#evictTo(maxSize);
  }

  #evictTo(limit: number): void {
    const mask = this.#ring.length - 1;
    while (this.#size > limit) {
      const oldest = this.#ring[this.#head]!;
      this.#ring[this.#head] = undefined;
      this.#head = (this.#head + 1) & mask;
      this.#count--;
      this.#size -= fieldSize(oldest.name, oldest.value);
    }
  }

  #grow(): void {
    const old = this.#ring;
    const ring = new Array<HeaderField | undefined>(old.length * 2);
    for (let k = 0; k < this.#count; k++) ring[k] = old[(this.#head + k) & (old.length - 1)];
    this.#ring = ring;
    this.#head = 0;
  }
}
