/**
 * When a front end keeps a read replica (replica-host.ts): only while serializable Ranges are
 * asked for or watch streams it serves are open (local-watches.ts). Keeping one costs every write some work on both threads (the change encoded on
 * the core, decoded and indexed on the front end) and the front end a second key index, so a
 * member whose clients only write, or only read linearizably, should not pay for it.
 *
 * - No replica: the first serializable Range or Watch seen asks the core for one (`want`); the
 *   call itself goes to the core. Until the image arrives nothing more is asked.
 * - A replica: once no serializable Range or Watch has been seen for `idleMs` and no watch
 *   stream served from it is open (`pin` / `unpin`), it is dropped (`idle`) and the core stops
 *   feeding it.
 *
 * Pure: the caller passes the time and acts on the answers.
 */
export const DEFAULT_REPLICA_IDLE_MS = 30_000;

export class ReplicaDemand {
  #lastAsked = -Infinity;
  #requested = false;
  #held = false;
  #pins = 0;

  constructor(private readonly idleMs: number = DEFAULT_REPLICA_IDLE_MS) {}

  /** A serializable Range or a Watch was seen at `now`; true when the core should be asked for a replica now. */
  asked(now: number): boolean {
    this.#lastAsked = now;
    if (this.#held || this.#requested) return false;
    this.#requested = true;
    return true;
  }

  /** The replica's image arrived (asked for or not). */
  imaged(): void {
    this.#held = true;
    this.#requested = false;
  }

  /** The replica was lost (it failed to follow): the next serializable Range asks again. */
  lost(): void {
    this.#held = false;
    this.#requested = false;
  }

  /** A watch stream served from the replica opened: it is kept at least until `unpin`. */
  pin(): void {
    this.#pins++;
  }

  /** That stream ended (at `now`): the idle time counts from its end. */
  unpin(now: number): void {
    this.#pins--;
    if (this.#lastAsked < now) this.#lastAsked = now;
  }

  /** Checked from time to time: true when the replica should be dropped now (it then is). */
  idle(now: number): boolean {
    if (!this.#held || this.#pins > 0 || now - this.#lastAsked < this.idleMs) return false;
    this.#held = false;
    return true;
  }
}
