/**
 * ReadIndex bookkeeping on the leader (linearizable reads without a log write).
 *
 * A read request is recorded with the commit index at the time it arrived; the leader then
 * broadcasts a heartbeat carrying the request's context. Once a quorum of voters echoes that
 * context, the leader knows it was still leader when the request arrived, so every request up
 * to and including that one may be answered with its recorded index. Requests are answered in
 * arrival order.
 */
import type { Message } from './message.js';

/** A request that can be served once the application has applied up to `index`. */
export interface ReadState {
  readonly index: number;
  readonly requestCtx: Buffer;
}

interface Pending {
  readonly index: number;
  readonly request: Message;
  readonly acks: Set<bigint>;
}

const key = (ctx: Buffer): string => ctx.toString('hex');

export class ReadIndexQueue {
  readonly #pending = new Map<string, Pending>();
  #queue: string[] = [];

  get size(): number {
    return this.#queue.length;
  }

  /** Records a request at commit index `index`; a repeated context is ignored. */
  add(index: number, request: Message): void {
    const k = key(request.context);
    if (this.#pending.has(k)) return;
    this.#pending.set(k, { index, request, acks: new Set() });
    this.#queue.push(k);
  }

  /** Records that `from` echoed `ctx`; returns the set of acks so far (undefined for an unknown ctx). */
  ack(from: bigint, ctx: Buffer): ReadonlySet<bigint> | undefined {
    const p = this.#pending.get(key(ctx));
    if (p === undefined) return undefined;
    p.acks.add(from);
    return p.acks;
  }

  /**
   * Releases every request up to and including the one with `ctx` (now confirmed), in order,
   * each with the index it was recorded at.
   */
  release(ctx: Buffer): { index: number; request: Message }[] {
    const at = this.#queue.indexOf(key(ctx));
    if (at < 0) return [];
    const done = this.#queue.slice(0, at + 1);
    this.#queue = this.#queue.slice(at + 1);
    return done.map((k) => {
      const p = this.#pending.get(k)!;
      this.#pending.delete(k);
      return { index: p.index, request: p.request };
    });
  }

  /** Context of the newest pending request, carried by every heartbeat. */
  lastPendingContext(): Buffer | undefined {
    const k = this.#queue[this.#queue.length - 1];
    return k === undefined ? undefined : this.#pending.get(k)!.request.context;
  }
}
