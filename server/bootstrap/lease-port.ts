/**
 * Adapts the lessor to the apply step's LeasePort, and rebuilds lessor state at startup
 * from the backend (lease records, then key attachments from the live keys).
 */
import type { LeasePort } from '../apply/ports.js';
import { ok, type Result } from '../errors/domain-error.js';
import type { Lessor } from '../lease/lessor.js';
import { decodeLeaseRecord, encodeLeaseKey, encodeLeaseRecord, type LeaseRecord } from '../lease/record.js';
import { Bucket, type Backend, type BackendOp } from '../storage/backend.js';

export function leasePort(lessor: Lessor): LeasePort {
  return {
    exists: (id) => lessor.has(id),
    grant: (id, ttl, nowMs) => {
      const res = lessor.grant(id, ttl, nowMs);
      return res.ok ? ok({ id: res.value.id, ttl: res.value.ttl }) : res;
    },
    revoke: (id) => lessor.revoke(id),
    attach: (id, key) => void lessor.attach(id, key),
    detach: (id, key) => void lessor.detach(id, key),
    checkpoint: (id, remainingTtlSeconds) => void lessor.checkpoint(id, remainingTtlSeconds),
    persistOps(id): BackendOp[] {
      const record = lessor.record(id);
      const key = encodeLeaseKey(id);
      if (record === undefined) return [{ type: 'del', bucket: Bucket.Lease, key }];
      return [{ type: 'put', bucket: Bucket.Lease, key, value: encodeLeaseRecord(record) }];
    },
  };
}

/** What lease recovery needs of the MVCC store: its live keys that name a lease. */
export interface LeasedKeys {
  forEachLeasedKey(fn: (key: Buffer, lease: bigint) => void): void;
}

/** Loads lease records and re-attaches every live key that names a lease (from the key index, no record read). */
export async function restoreLeases(lessor: Lessor, backend: Backend, store: LeasedKeys): Promise<Result<number>> {
  const records: LeaseRecord[] = [];
  for await (const [, value] of backend.iterate(Bucket.Lease)) {
    const r = decodeLeaseRecord(value);
    if (!r.ok) return r;
    records.push(r.value);
  }
  lessor.restore(records);
  store.forEachLeasedKey((key, lease) => {
    if (lessor.has(lease)) lessor.attach(lease, key);
  });
  return ok(records.length);
}
