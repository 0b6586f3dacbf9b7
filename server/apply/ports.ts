/**
 * What the apply step needs from the rest of the member, as ports. The lessor and alarm
 * set are in-memory state machines replicated through the log (apply is their only writer).
 */
import type { Result } from '../errors/domain-error.js';
import type { BackendOp } from '../storage/backend.js';

export interface LeasePort {
  exists(id: bigint): boolean;
  grant(id: bigint, ttlSeconds: bigint, nowMs: number): Result<{ readonly id: bigint; readonly ttl: bigint }>;
  /** Removes the lease; returns the keys attached to it. */
  revoke(id: bigint): Result<{ readonly keys: readonly Buffer[] }>;
  attach(id: bigint, key: Buffer): void;
  detach(id: bigint, key: Buffer): void;
  /** Records the lease's checkpointed remaining TTL (seconds; 0 clears it). */
  checkpoint(id: bigint, remainingTtlSeconds: bigint): void;
  /** Backend ops that persist the lease's current record (or its deletion). */
  persistOps(id: bigint): BackendOp[];
}

export const AlarmType = { None: 0, NoSpace: 1, Corrupt: 2 } as const;
export type AlarmType = (typeof AlarmType)[keyof typeof AlarmType];

export interface AlarmEntry {
  readonly memberID: bigint;
  readonly alarm: number;
}
