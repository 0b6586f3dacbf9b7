/**
 * Waiters for proposals this member made: request id → resolver. An entry is resolved
 * exactly once, when its request is applied (or when the member stops).
 */
import type { Result } from '../errors/domain-error.js';
import type { Applied } from '../apply/applier.js';

export type ApplyResolver = (r: Result<Applied>) => void;

export class ProposalWaiters {
  readonly #waiting = new Map<bigint, ApplyResolver>();
  #nextId: bigint;

  constructor(seed: bigint) {
    this.#nextId = seed;
  }

  get size(): number {
    return this.#waiting.size;
  }

  /** Registers a new waiter; returns its request id and the promise of its outcome. */
  register(): { id: bigint; outcome: Promise<Result<Applied>> } {
    const id = this.#nextId++;
    const outcome = new Promise<Result<Applied>>((resolve) => this.#waiting.set(id, resolve));
    return { id, outcome };
  }

  resolve(id: bigint, r: Result<Applied>): void {
    const w = this.#waiting.get(id);
    if (w === undefined) return;
    this.#waiting.delete(id);
    w(r);
  }

  /** Fails every waiter (member stopping). */
  failAll(r: Result<Applied>): void {
    for (const w of this.#waiting.values()) w(r);
    this.#waiting.clear();
  }
}
