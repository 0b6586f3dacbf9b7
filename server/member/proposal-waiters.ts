/**
 * Waiters for proposals this member made: request id → resolver and deadline. An entry is
 * resolved exactly once: when its request is applied, when its deadline passes (the
 * proposal may have been lost with a leader), or when the member stops.
 */
import type { Result } from '../errors/domain-error.js';
import type { Applied } from '../apply/applier.js';

export type ApplyResolver = (r: Result<Applied>) => void;

interface Waiter {
  readonly resolve: ApplyResolver;
  readonly deadline: number;
}

export class ProposalWaiters {
  readonly #waiting = new Map<bigint, Waiter>();
  #nextId: bigint;

  constructor(seed: bigint) {
    this.#nextId = seed;
  }

  get size(): number {
    return this.#waiting.size;
  }

  /** Registers a new waiter; returns its request id and the promise of its outcome. */
  register(deadline: number): { id: bigint; outcome: Promise<Result<Applied>> } {
    const id = this.#nextId++;
    const outcome = new Promise<Result<Applied>>((resolve) => this.#waiting.set(id, { resolve, deadline }));
    return { id, outcome };
  }

  has(id: bigint): boolean {
    return this.#waiting.has(id);
  }

  resolve(id: bigint, r: Result<Applied>): void {
    const w = this.#waiting.get(id);
    if (w === undefined) return;
    this.#waiting.delete(id);
    w.resolve(r);
  }

  /** Fails every waiter whose deadline is at or before `now`; returns how many. */
  expire(now: number, r: Result<Applied>): number {
    let n = 0;
    for (const [id, w] of this.#waiting) {
      if (w.deadline > now) continue;
      this.#waiting.delete(id);
      w.resolve(r);
      n++;
    }
    return n;
  }

  /** Fails every waiter (member stopping). */
  failAll(r: Result<Applied>): void {
    for (const w of this.#waiting.values()) w.resolve(r);
    this.#waiting.clear();
  }
}
