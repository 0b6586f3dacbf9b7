/**
 * Inflights: the MsgApp messages sent to one follower and not yet acknowledged, as the last
 * entry index each carried. Bounds pipelining: when `full()`, the leader stops sending entries
 * to that follower until an acknowledgement frees slots.
 *
 * Invariant: indexes are strictly increasing in send order.
 */
export class Inflights {
  readonly #capacity: number;
  #indexes: number[] = [];

  constructor(capacity: number) {
    if (capacity < 1) throw new Error(`inflight capacity ${capacity} must be at least 1`);
    this.#capacity = capacity;
  }

  get count(): number {
    return this.#indexes.length;
  }

  get capacity(): number {
    return this.#capacity;
  }

  full(): boolean {
    return this.#indexes.length >= this.#capacity;
  }

  /** Records a message whose last entry is `index`. Throws when full or out of order. */
  add(index: number): void {
    if (this.full()) throw new Error('inflights full');
    const last = this.#indexes[this.#indexes.length - 1];
    if (last !== undefined && index <= last) throw new Error(`inflight ${index} not after ${last}`);
    this.#indexes.push(index);
  }

  /** Frees every message whose last entry is <= `index` (acknowledged). */
  freeLE(index: number): void {
    let n = 0;
    while (n < this.#indexes.length && this.#indexes[n]! <= index) n++;
    if (n > 0) this.#indexes = this.#indexes.slice(n);
  }

  /** Frees the oldest slot (used when acknowledgements were lost). */
  freeFirst(): void {
    this.#indexes = this.#indexes.slice(1);
  }

  reset(): void {
    this.#indexes = [];
  }
}
