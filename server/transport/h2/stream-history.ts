/**
 * What a connection remembers of the client's stream ids that are no longer open, so a frame on
 * one can be told apart (RFC 9113 §5.1, §5.1.1): idle (never opened, above the last id), never
 * used (skipped: a lower id implicitly closed when a higher one opened), or closed — and how it
 * closed, which decides what a late frame gets.
 *
 * Bounded memory, and the choice it implies:
 * - skipped ids are kept as ranges, the last `maxGaps` of them: real clients number their
 *   streams 1, 3, 5, … and skip none, so this memory is empty for them and exact for anyone
 *   skipping fewer than `maxGaps` times; an id in a forgotten range reads as closed;
 * - closed streams are kept with how they closed, the last `maxClosed` of them; an older one
 *   reads as `{ state: 'closed', how: undefined }` (closed, long ago).
 *
 * Contract: pure; ids are given in increasing order to `opened` (the connection refuses any
 * other order before asking); O(1) per call except `stateOf` on a skipped id (O(maxGaps)).
 */

/** How a stream closed: we reset it, the client reset it, or both sides ended it. */
export type ClosedHow = 'reset-sent' | 'reset-received' | 'ended';

export type StreamIdState =
  | { readonly state: 'idle' }
  | { readonly state: 'unused' }
  | { readonly state: 'closed'; readonly how: ClosedHow | undefined };

export class StreamHistory {
  #last = 0;
  /** [first, last] id ranges never used, oldest first. */
  readonly #gaps: [number, number][] = [];
  /** Closed ids, in the order they closed (a Map keeps insertion order). */
  readonly #closed = new Map<number, ClosedHow>();

  constructor(
    private readonly maxClosed = 4096,
    private readonly maxGaps = 64,
  ) {}

  /** The highest id the client has opened. */
  get lastOpened(): number {
    return this.#last;
  }

  /** The client opened `id` (greater than every id before): the odd ids skipped are never used. */
  opened(id: number): void {
    if (id > this.#last + 2) {
      this.#gaps.push([this.#last + 2 - (this.#last === 0 ? 1 : 0), id - 2]);
      if (this.#gaps.length > this.maxGaps) this.#gaps.shift();
    }
    this.#last = id;
  }

  /** Stream `id` closed, `how`. */
  closed(id: number, how: ClosedHow): void {
    this.#closed.delete(id);
    this.#closed.set(id, how);
    if (this.#closed.size > this.maxClosed) {
      const oldest = this.#closed.keys().next().value as number;
      this.#closed.delete(oldest);
    }
  }

  /** What `id` (odd, not open now) is. */
  stateOf(id: number): StreamIdState {
    if (id > this.#last) return { state: 'idle' };
    const how = this.#closed.get(id);
    if (how !== undefined) return { state: 'closed', how };
    for (const [first, last] of this.#gaps) if (id >= first && id <= last) return { state: 'unused' };
    return { state: 'closed', how: undefined };
  }
}
