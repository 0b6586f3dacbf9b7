/**
 * `--max-concurrent-streams` for gateway requests. etcd's gateway is a gRPC client of its own
 * member over ONE connection, so every gateway call (unary or stream) is a stream of that
 * connection: beyond the member's limit, a call waits for a stream to end — the HTTP client
 * sees no answer until then (etcd 3.4's e2e `TestV3Curl_MaxStreams_*`: a range after as many
 * open `/v3/watch` requests as the limit times out).
 *
 * `StreamSlots` is that connection's stream count: `acquire()` takes a slot, or waits in FIFO
 * order until one is released; a waiter whose `abandon` signal fires leaves the queue (etcd:
 * the HTTP request's context ends, and with it the call). Each slot is released once.
 * No I/O and no timers; one instance per member, shared by every gateway app it builds.
 */

/** Gives the slot back; later calls do nothing. */
export type Release = () => void;

export class StreamSlots {
  readonly #limit: number;
  #used = 0;
  readonly #waiting: ((release: Release) => void)[] = [];

  /** `limit` streams at once (etcd's default, 2^32-1, is as good as none). */
  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  /** Slots held now. */
  get used(): number {
    return this.#used;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Resolves with a release once a slot is held; with `undefined` if `abandon` fired first
   * (nothing is then held).
   */
  acquire(abandon?: AbortSignal): Promise<Release | undefined> {
    if (abandon?.aborted === true) return Promise.resolve(undefined);
    if (this.#used < this.#limit && this.#waiting.length === 0) {
      this.#used++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve) => {
      const grant = (release: Release): void => {
        abandon?.removeEventListener('abort', leave);
        resolve(release);
      };
      const leave = (): void => {
        const at = this.#waiting.indexOf(grant);
        if (at >= 0) this.#waiting.splice(at, 1);
        resolve(undefined);
      };
      this.#waiting.push(grant);
      abandon?.addEventListener('abort', leave, { once: true });
    });
  }

  #releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.#waiting.shift();
      if (next !== undefined) next(this.#releaser());
      else this.#used--;
    };
  }
}
