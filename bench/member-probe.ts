/**
 * Single requests the driver sends to one member outside the measured load: Maintenance.Status
 * (who the member thinks leads) and a one-key Range (does it serve, what does it hold).
 * Each call opens and closes its own channel and is bounded by `timeoutMs`.
 */
import { credentials, Metadata } from '@grpc/grpc-js';
import { MaintenanceClient, type RangeRequest } from '../proto/gen/etcd/rpc.js';
import { openKv } from './load/channel.js';

export interface MemberStatus {
  /** This member's id (from the response header). */
  readonly memberId: bigint;
  /** The leader this member knows of; 0n when it knows none. */
  readonly leader: bigint;
  readonly raftTerm: bigint;
}

export function memberStatus(target: string, timeoutMs: number): Promise<MemberStatus> {
  const client = new MaintenanceClient(target, credentials.createInsecure(), { 'grpc.enable_channelz': 0 });
  return new Promise<MemberStatus>((resolve, reject) => {
    client.status({}, new Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) => {
      if (err) reject(new Error(`Status on ${target}: ${err.message}`, { cause: err }));
      else resolve({ memberId: res.header?.memberId ?? 0n, leader: res.leader, raftTerm: res.raftTerm });
    });
  }).finally(() => client.close());
}

/** Count of `key` on this member (0 or 1); linearizable unless `serializable`. */
export function rangeCount(target: string, key: Buffer, serializable: boolean, timeoutMs: number): Promise<number> {
  const kv = openKv(target);
  const req: RangeRequest = {
    key, rangeEnd: Buffer.alloc(0), limit: 0n, revision: 0n, sortOrder: 0, sortTarget: 0, serializable, keysOnly: false,
    countOnly: true, minModRevision: 0n, maxModRevision: 0n, minCreateRevision: 0n, maxCreateRevision: 0n,
  };
  return new Promise<number>((resolve, reject) => {
    kv.range(req, new Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) => {
      if (err) reject(new Error(`Range on ${target}: ${err.message}`, { cause: err }));
      else resolve(Number(res.count));
    });
  }).finally(() => kv.close());
}
