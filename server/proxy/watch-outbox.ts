/**
 * A client watch stream's send side, bounded: responses are written while the stream takes them;
 * once it pushes back they wait here, up to `limit`, and go out on 'drain'. Past the limit the
 * outbox overflows once (the caller then ends that client's stream) and takes nothing more.
 * A slow client thus costs its own stream only, never the shared upstream watch.
 */
export interface Sink {
  /** false: the stream's buffer is full; wait for 'drain'. */
  write(b: Buffer): boolean;
  once(event: 'drain', f: () => void): unknown;
}

export class WatchOutbox {
  readonly #sink: Sink;
  readonly #limit: number;
  readonly #waiting: Buffer[] = [];
  #blocked = false;
  #overflowed = false;

  constructor(sink: Sink, limit: number) {
    this.#sink = sink;
    this.#limit = limit;
  }

  /** Queues `b`; 'overflow' the first time more than `limit` responses wait. */
  push(b: Buffer): 'ok' | 'overflow' | 'closed' {
    if (this.#overflowed) return 'closed';
    if (this.#blocked) {
      if (this.#waiting.length >= this.#limit) {
        this.#overflowed = true;
        this.#waiting.length = 0;
        return 'overflow';
      }
      this.#waiting.push(b);
      return 'ok';
    }
    if (!this.#sink.write(b)) this.#block();
    return 'ok';
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  #block(): void {
    this.#blocked = true;
    this.#sink.once('drain', () => {
      this.#blocked = false;
      while (!this.#blocked && !this.#overflowed && this.#waiting.length > 0) {
        if (!this.#sink.write(this.#waiting.shift()!)) this.#block();
      }
    });
  }
}
