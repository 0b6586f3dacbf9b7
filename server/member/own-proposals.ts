/**
 * This member's proposals, kept decoded so that applying one needs no decoding of its entry.
 * Before it is persisted a proposal is found by its entry bytes (the same Buffer object travels
 * from propose() to the Ready that persists it); once persisted, by log index with the term it
 * was written at, because the in-memory log keeps a copy of each payload (raft/entry-arena.ts)
 * and the committed entry is another Buffer. An index written over by another leader's entry
 * is applied with that entry's term and decoded by the caller; snapshot installs drop what they
 * skip. Entries that arrive from the network are never found here.
 */
import type { InternalRequest } from '../../proto/gen/kvstore/internal.js';
import type { Entry } from '../raft/log-types.js';

export class OwnProposals {
  readonly #byBytes = new WeakMap<Uint8Array, InternalRequest>();
  readonly #byIndex = new Map<number, { readonly term: number; readonly request: InternalRequest }>();

  /** A proposal about to enter the log with the entry bytes `data`. */
  proposed(data: Uint8Array, request: InternalRequest): void {
    this.#byBytes.set(data, request);
  }

  /** The Ready's entries were persisted: this member's own ones are known by index from now on. */
  persisted(entries: readonly Entry[]): void {
    for (const e of entries) {
      const own = this.#byBytes.get(e.data);
      if (own !== undefined) this.#byIndex.set(e.index, { term: e.term, request: own });
    }
  }

  /** The decoded request of `entry` if this member proposed it (and forgets it). */
  take(entry: Entry): InternalRequest | undefined {
    const persisted = this.#byIndex.get(entry.index);
    if (persisted !== undefined) {
      this.#byIndex.delete(entry.index);
      if (persisted.term === entry.term) return persisted.request;
    }
    const own = this.#byBytes.get(entry.data);
    if (own !== undefined) this.#byBytes.delete(entry.data);
    return own;
  }

  /** A snapshot at `index` was installed: entries up to it are never applied here. */
  forgetThrough(index: number): void {
    for (const at of this.#byIndex.keys()) if (at <= index) this.#byIndex.delete(at);
  }
}
