/**
 * Lease checkpoint scheduling: the leader's side of `--experimental-enable-lease-checkpoint`
 * (etcd 3.4). Pure and synchronous: time comes in as `nowMs`, nothing is scheduled for real.
 *
 * While this member is primary, every lease whose remaining TTL outlives the checkpoint
 * interval gets a checkpoint due one interval after its timer started (grant or promote),
 * then one interval after each checkpoint taken. A due checkpoint carries the remaining TTL
 * in whole seconds, rounded up; it is skipped (and rescheduled) while the lease still has its
 * full TTL, and dropped when the lease has expired (revocation will follow). A keep-alive that
 * clears a checkpointed remaining TTL queues a reset: a checkpoint with remaining TTL 0, handed
 * out before any due one. The caller proposes what `take` returns as LeaseCheckpointRequests
 * of at most MAX_CHECKPOINTS_PER_PROPOSAL entries (`checkpointBatches`); every member applies
 * them with `Lessor.checkpoint`, and a later leader resumes each lease from that remaining TTL.
 *
 * Invariants: a lease is queued at most once; `take` never hands out more than `max` entries
 * and never the same lease twice in one call.
 */
import { ExpiryQueue } from './expiry-queue.js';

/** etcd's default checkpoint interval (not configurable by flag in 3.4). */
export const DEFAULT_CHECKPOINT_INTERVAL_MS = 5 * 60 * 1000;
/** At most this many checkpoints per LeaseCheckpointRequest (etcd: maxLeaseCheckpointBatchSize). */
export const MAX_CHECKPOINTS_PER_PROPOSAL = 1000;

/** One entry of a LeaseCheckpointRequest (field names as in the generated etcd messages). */
export interface LeaseCheckpoint {
  readonly ID: bigint;
  /** Remaining TTL in seconds; 0 clears a previous checkpoint. */
  readonly remainingTTL: bigint;
}

/** What `take` needs to know about a lease on the primary. */
export interface CheckpointView {
  /** Expiry time in ms (same clock as nowMs). */
  readonly expiryMs: number;
  /** Granted TTL in seconds. */
  readonly ttl: bigint;
}

export class CheckpointSchedule {
  readonly #intervalMs: number;
  readonly #queue = new ExpiryQueue();
  /** Leases whose checkpointed remaining TTL a keep-alive cleared, in arrival order. */
  readonly #resets = new Set<bigint>();

  /** @param intervalMs time between two checkpoints of one lease (> 0). */
  constructor(intervalMs: number) {
    if (!(intervalMs > 0)) throw new RangeError(`lease checkpoint interval must be > 0, got ${intervalMs}`);
    this.#intervalMs = intervalMs;
  }

  get intervalMs(): number {
    return this.#intervalMs;
  }

  /**
   * The lease's timer (re)started at `nowMs` with `remainingSeconds` to live (grant, promote):
   * its next checkpoint is one interval from now, if it outlives that interval; otherwise none.
   */
  start(id: bigint, nowMs: number, remainingSeconds: bigint): void {
    if (Number(remainingSeconds) * 1000 > this.#intervalMs) this.#queue.upsert(id, nowMs + this.#intervalMs);
    else this.#queue.remove(id);
  }

  /** Keep-alive: like `start`, but leaves an already scheduled checkpoint where it is. */
  renewed(id: bigint, nowMs: number, ttlSeconds: bigint): void {
    if (!this.#queue.has(id)) this.start(id, nowMs, ttlSeconds);
  }

  /** A keep-alive cleared the lease's checkpointed remaining TTL: replicate that (checkpoint 0). */
  reset(id: bigint): void {
    this.#resets.add(id);
  }

  /** The lease is gone. */
  remove(id: bigint): void {
    this.#queue.remove(id);
    this.#resets.delete(id);
  }

  /** Leadership lost: nothing is scheduled any more. */
  clear(): void {
    this.#queue.clear();
    this.#resets.clear();
  }

  /** Number of leases with a checkpoint scheduled (resets not counted). */
  get scheduled(): number {
    return this.#queue.size;
  }

  /**
   * Up to `max` checkpoints to propose now: pending resets first (arrival order), then due
   * leases (earliest first, ties by id). `view` returns undefined for an unknown lease (dropped).
   * Each lease handed out with a remaining TTL is rescheduled one interval later if it outlives it.
   */
  take(nowMs: number, max: number, view: (id: bigint) => CheckpointView | undefined): LeaseCheckpoint[] {
    const out: LeaseCheckpoint[] = [];
    const seen = new Set<bigint>();
    for (const id of this.#resets) {
      if (out.length >= max) return out;
      this.#resets.delete(id);
      if (view(id) === undefined) continue;
      out.push({ ID: id, remainingTTL: 0n });
      seen.add(id);
    }
    for (let top = this.#queue.peek(); top !== undefined && top.dueMs <= nowMs && out.length < max; top = this.#queue.peek()) {
      const id = top.id;
      const lease = view(id);
      if (lease === undefined || lease.expiryMs <= nowMs) {
        this.#queue.remove(id);
        continue;
      }
      const remaining = BigInt(Math.ceil((lease.expiryMs - nowMs) / 1000));
      this.start(id, nowMs, remaining);
      if (remaining >= lease.ttl || seen.has(id)) continue;
      out.push({ ID: id, remainingTTL: remaining });
    }
    return out;
  }
}

/** Splits checkpoints into proposals of at most `max` (≥ 1) entries, keeping their order. */
export function checkpointBatches(checkpoints: readonly LeaseCheckpoint[], max = MAX_CHECKPOINTS_PER_PROPOSAL): LeaseCheckpoint[][] {
  const size = Math.max(1, Math.floor(max));
  const batches: LeaseCheckpoint[][] = [];
  for (let i = 0; i < checkpoints.length; i += size) batches.push(checkpoints.slice(i, i + size));
  return batches;
}
