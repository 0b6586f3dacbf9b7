/**
 * Linearizable reads: callers wait for a barrier; all barriers requested in one loop turn
 * share one read-index request. Once the leader confirms an index, they are released as
 * soon as the member has applied up to it. A leader that steps down drops the requests it
 * has not answered, so on a leader change the unconfirmed ones are asked again (a new
 * request, answered by the new leader, is still a read point after the caller's call).
 * Barriers fail at their deadline.
 */
import { err, ok, type Result } from '../errors/domain-error.js';

interface Waiting {
  readonly resolve: (r: Result<void>) => void;
  readonly deadline: number;
}

/**
 * Request ids are this member's id followed by a counter, so that reads forwarded to the
 * leader by different members never share an id.
 */
export class ReadBarriers {
  readonly #memberId: bigint;

  constructor(memberId: bigint) {
    this.#memberId = memberId;
  }

  #queued: Waiting[] = [];
  /** ctx (hex) → barriers asked under it, and the confirmed index once known. */
  readonly #inFlight = new Map<string, { waiting: Waiting[]; index: number | undefined }>();
  #seq = 0n;

  wait(deadline: number): Promise<Result<void>> {
    return new Promise((resolve) => this.#queued.push({ resolve, deadline }));
  }

  /** Takes the queued barriers under a fresh ctx (to pass to the read-index request). */
  takeQueued(): Buffer | undefined {
    if (this.#queued.length === 0) return undefined;
    const ctx = Buffer.alloc(16);
    ctx.writeBigUInt64BE(this.#memberId, 0);
    ctx.writeBigUInt64BE(++this.#seq, 8);
    this.#inFlight.set(ctx.toString('hex'), { waiting: this.#queued, index: undefined });
    this.#queued = [];
    return ctx;
  }

  /** The request under `ctx` could not be sent now: its barriers go back to the queue. */
  requeue(ctx: Buffer): void {
    const f = this.#inFlight.get(ctx.toString('hex'));
    if (!f) return;
    this.#inFlight.delete(ctx.toString('hex'));
    this.#queued.push(...f.waiting);
  }

  /** The leader changed: requests not confirmed yet go back to the queue, to be asked again. */
  retryUnconfirmed(): void {
    for (const [k, f] of this.#inFlight) {
      if (f.index !== undefined) continue;
      this.#inFlight.delete(k);
      this.#queued.push(...f.waiting);
    }
  }

  confirmed(ctx: Buffer, index: number): void {
    const f = this.#inFlight.get(ctx.toString('hex'));
    if (f) f.index = index;
  }

  /** Releases every confirmed batch whose index is applied. */
  applied(appliedIndex: number): void {
    for (const [k, f] of this.#inFlight) {
      if (f.index === undefined || f.index > appliedIndex) continue;
      this.#inFlight.delete(k);
      for (const w of f.waiting) w.resolve(ok(undefined));
    }
  }

  /** Fails barriers past their deadline (queued, or asked but never confirmed). */
  expire(now: number): void {
    const keep = (ws: Waiting[]): Waiting[] =>
      ws.filter((w) => {
        if (w.deadline > now) return true;
        w.resolve(err('Timeout'));
        return false;
      });
    this.#queued = keep(this.#queued);
    for (const [k, f] of this.#inFlight) {
      f.waiting = keep(f.waiting);
      if (f.waiting.length === 0) this.#inFlight.delete(k);
    }
  }

  failAll(r: Result<void>): void {
    for (const w of this.#queued) w.resolve(r);
    for (const f of this.#inFlight.values()) for (const w of f.waiting) w.resolve(r);
    this.#queued = [];
    this.#inFlight.clear();
  }
}
