/**
 * The lessor: every lease's TTL, expiry and attached keys. Pure and synchronous —
 * time comes in as `nowMs` (any monotonic millisecond clock), nothing is scheduled.
 *
 * Roles (ETCD-FACTS §3.7):
 * - demoted (the initial state, and every follower): leases never expire, `expired()` is
 *   always empty, `renew` changes nothing;
 * - primary (the leader, after `promote(nowMs, extendMs)`): every lease restarts from its full
 *   TTL (or its checkpointed remaining TTL) plus `extendMs` (the leader passes its election
 *   timeout, as the reference server does, so a takeover never shortens a lease), and expires
 *   at grant/renew time + TTL.
 *
 * Invariants:
 * - 0 is never a lease id; a granted TTL is within [minTtl, MAX_LEASE_TTL_SECONDS];
 * - a key is attached to at most one lease (attaching it elsewhere moves it);
 * - a lease is due when nowMs ≥ its expiry; `expired()` hands out each due lease once,
 *   then again only every `expiredRetryMs` until it is revoked (so a lost revoke is retried).
 *
 * Who calls what: the apply step calls grant/revoke/attach/detach/checkpoint/restore in
 * log order on every member; the leader's loop calls expired() and proposes revokes, and
 * (with checkpointing on) dueCheckpoints() and proposes LeaseCheckpointRequests;
 * keep-alive and time-to-live are served by the leader (renew, timeToLive).
 */
import { err, ok, type Result } from '../errors/domain-error.js';
import { CheckpointSchedule, type LeaseCheckpoint } from './checkpoint-schedule.js';
import { ExpiryQueue } from './expiry-queue.js';
import type { LeaseRecord } from './record.js';
import { MAX_LEASE_TTL_SECONDS, NO_LEASE } from './ttl.js';

export interface Lease {
  readonly id: bigint;
  /** Effective granted TTL in seconds. */
  readonly ttl: bigint;
}

export interface LeaseTimeToLive {
  /** Remaining seconds, truncated (never negative). */
  readonly ttl: bigint;
  readonly grantedTTL: bigint;
  /** Attached keys in byte order. */
  readonly keys: Buffer[];
}

export interface LessorOptions {
  /** Minimum TTL in seconds (see minLeaseTtlSeconds). */
  readonly minTtlSeconds: bigint;
  /** How long a lease handed out by `expired()` waits before it is handed out again. Default 3000. */
  readonly expiredRetryMs?: number;
  /**
   * Lease checkpointing (`--experimental-enable-lease-checkpoint`): the time between two
   * checkpoints of a lease (see checkpoint-schedule.ts). Undefined: off, dueCheckpoints() is empty.
   */
  readonly checkpointIntervalMs?: number;
}

export interface Lessor {
  /** True between promote() and demote(). */
  readonly primary: boolean;
  /** Creates a lease. Errors: LeaseNotFound (id 0), LeaseTTLTooLarge, LeaseExists. TTL is raised to the minimum. */
  grant(id: bigint, ttlSeconds: bigint, nowMs: number): Result<Lease>;
  /** Removes a lease; returns its keys in byte order for deletion in one revision. Errors: LeaseNotFound. */
  revoke(id: bigint): Result<{ readonly keys: Buffer[] }>;
  /** Attaches `key` to lease `id`, detaching it from any other lease. Errors: LeaseNotFound. */
  attach(id: bigint, key: Buffer): Result<void>;
  /** Detaches `key` from lease `id` (no-op if it is not attached there). Errors: LeaseNotFound. */
  detach(id: bigint, key: Buffer): Result<void>;
  /** The lease `key` is attached to, if any. */
  leaseOf(key: Buffer): bigint | undefined;
  /** Restarts the lease's full TTL; returns it, or 0n if unknown or already due. Demoted: returns the TTL, changes nothing. */
  renew(id: bigint, nowMs: number): bigint;
  /** Remaining/granted TTL and keys; undefined if unknown. Demoted: remaining = checkpointed remaining or full TTL. */
  timeToLive(id: bigint, nowMs: number): LeaseTimeToLive | undefined;
  has(id: bigint): boolean;
  /** All lease ids, ascending. */
  leases(): bigint[];
  /** Up to `max` leases due at `nowMs`, earliest expiry first (empty when demoted). */
  expired(nowMs: number, max: number): bigint[];
  /** Leader takeover: every lease expires at nowMs + extendMs + (checkpointed remaining TTL or full TTL). */
  promote(nowMs: number, extendMs?: number): void;
  /** Leadership lost: expiry paused for every lease. */
  demote(): void;
  /**
   * Primary with checkpointing on: up to `max` checkpoints to propose now (resets from keep-alives
   * first, then leases due, earliest first). Empty when demoted or off.
   */
  dueCheckpoints(nowMs: number, max: number): LeaseCheckpoint[];
  /** Records a remaining TTL (seconds) to resume from on the next promote/restore. Errors: LeaseNotFound. */
  checkpoint(id: bigint, remainingTtlSeconds: bigint): Result<void>;
  /** The persistent form of a lease (for the backend `lease` bucket). */
  record(id: bigint): LeaseRecord | undefined;
  /** Replaces all leases with `records` (keys are re-attached by the caller); leaves the lessor demoted. */
  restore(records: Iterable<LeaseRecord>): void;
}

interface LeaseState {
  readonly id: bigint;
  readonly ttl: bigint;
  remainingTtl: bigint;
  /** Expiry time in ms; Infinity while demoted. */
  expiryMs: number;
  /** latin1 form of each key → key. */
  readonly keys: Map<string, Buffer>;
}

export function createLessor(options: LessorOptions): Lessor {
  const minTtl = options.minTtlSeconds;
  const retryMs = Math.max(1, options.expiredRetryMs ?? 3000);
  const leases = new Map<bigint, LeaseState>();
  const keyLease = new Map<string, bigint>();
  const queue = new ExpiryQueue();
  const checkpoints = options.checkpointIntervalMs === undefined ? undefined : new CheckpointSchedule(options.checkpointIntervalMs);
  let primary = false;

  const schedule = (l: LeaseState, nowMs: number, seconds: bigint): void => {
    l.expiryMs = nowMs + Number(seconds) * 1000;
    queue.upsert(l.id, l.expiryMs);
  };
  /** Timer (re)started from `seconds` (grant, promote): also restarts the checkpoint schedule. */
  const start = (l: LeaseState, nowMs: number, seconds: bigint): void => {
    schedule(l, nowMs, seconds);
    checkpoints?.start(l.id, nowMs, seconds);
  };

  const lessor: Lessor = {
    get primary() {
      return primary;
    },

    grant(id, ttlSeconds, nowMs) {
      if (id === NO_LEASE) return err('LeaseNotFound');
      if (ttlSeconds > MAX_LEASE_TTL_SECONDS) return err('LeaseTTLTooLarge');
      if (leases.has(id)) return err('LeaseExists');
      const ttl = ttlSeconds < minTtl ? minTtl : ttlSeconds;
      const l: LeaseState = { id, ttl, remainingTtl: 0n, expiryMs: Infinity, keys: new Map() };
      leases.set(id, l);
      if (primary) start(l, nowMs, ttl);
      return ok({ id, ttl });
    },

    revoke(id) {
      const l = leases.get(id);
      if (l === undefined) return err('LeaseNotFound');
      leases.delete(id);
      queue.remove(id);
      checkpoints?.remove(id);
      for (const k of l.keys.keys()) keyLease.delete(k);
      return ok({ keys: sortedKeys(l) });
    },

    attach(id, key) {
      const l = leases.get(id);
      if (l === undefined) return err('LeaseNotFound');
      const k = key.toString('latin1');
      const previous = keyLease.get(k);
      if (previous !== undefined && previous !== id) leases.get(previous)?.keys.delete(k);
      l.keys.set(k, Buffer.from(key));
      keyLease.set(k, id);
      return ok(undefined);
    },

    detach(id, key) {
      const l = leases.get(id);
      if (l === undefined) return err('LeaseNotFound');
      const k = key.toString('latin1');
      if (l.keys.delete(k)) keyLease.delete(k);
      return ok(undefined);
    },

    leaseOf(key) {
      return keyLease.get(key.toString('latin1'));
    },

    renew(id, nowMs) {
      const l = leases.get(id);
      if (l === undefined) return 0n;
      if (!primary) return l.ttl;
      if (l.expiryMs <= nowMs) return 0n;
      if (checkpoints !== undefined && l.remainingTtl > 0n) checkpoints.reset(id);
      l.remainingTtl = 0n;
      schedule(l, nowMs, l.ttl);
      checkpoints?.renewed(id, nowMs, l.ttl);
      return l.ttl;
    },

    timeToLive(id, nowMs) {
      const l = leases.get(id);
      if (l === undefined) return undefined;
      let remaining: bigint;
      if (primary) {
        remaining = l.expiryMs <= nowMs ? 0n : BigInt(Math.floor((l.expiryMs - nowMs) / 1000));
      } else {
        remaining = l.remainingTtl > 0n ? l.remainingTtl : l.ttl;
      }
      return { ttl: remaining, grantedTTL: l.ttl, keys: sortedKeys(l) };
    },

    has(id) {
      return leases.has(id);
    },

    leases() {
      return [...leases.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },

    expired(nowMs, max) {
      const due: bigint[] = [];
      if (!primary) return due;
      for (let top = queue.peek(); top !== undefined && top.dueMs <= nowMs && due.length < max; top = queue.peek()) {
        due.push(top.id);
        queue.upsert(top.id, nowMs + retryMs);
      }
      return due;
    },

    promote(nowMs, extendMs = 0) {
      primary = true;
      for (const l of leases.values()) start(l, nowMs + extendMs, l.remainingTtl > 0n ? l.remainingTtl : l.ttl);
    },

    demote() {
      primary = false;
      queue.clear();
      checkpoints?.clear();
      for (const l of leases.values()) l.expiryMs = Infinity;
    },

    dueCheckpoints(nowMs, max) {
      if (!primary || checkpoints === undefined) return [];
      return checkpoints.take(nowMs, max, (id) => {
        const l = leases.get(id);
        return l === undefined ? undefined : { expiryMs: l.expiryMs, ttl: l.ttl };
      });
    },

    checkpoint(id, remainingTtlSeconds) {
      const l = leases.get(id);
      if (l === undefined) return err('LeaseNotFound');
      l.remainingTtl = remainingTtlSeconds > 0n ? remainingTtlSeconds : 0n;
      return ok(undefined);
    },

    record(id) {
      const l = leases.get(id);
      return l === undefined ? undefined : { id: l.id, ttl: l.ttl, remainingTtl: l.remainingTtl };
    },

    restore(records) {
      lessor.demote();
      leases.clear();
      keyLease.clear();
      for (const r of records) {
        if (r.id === NO_LEASE) continue;
        const ttl = r.ttl < minTtl ? minTtl : r.ttl;
        leases.set(r.id, { id: r.id, ttl, remainingTtl: r.remainingTtl > 0n ? r.remainingTtl : 0n, expiryMs: Infinity, keys: new Map() });
      }
    },
  };
  return lessor;
}

function sortedKeys(l: LeaseState): Buffer[] {
  return [...l.keys.values()].sort(Buffer.compare);
}
