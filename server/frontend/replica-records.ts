/**
 * Payloads of the read-replica records (records.ts `Replica*`): what the core sends a front
 * end so that it can answer serializable Ranges and serve watches itself (replica-host.ts). Pure.
 *
 *   change   main f64 · events u32 · per event: type u8 (0 put, 1 delete, 2 gone: a change a
 *            compaction made useless) · length u32 · the record as stored (kv-codec.ts)
 *   revision f64
 *   context  cluster id u64 · member id u64 · raft term u64 · flags u8 (1: auth enabled,
 *            2: a leader is known, 4: this member is a learner)
 *
 * Decoded records are copies: nothing refers to the turn's buffer afterwards.
 */
import { Event_EventType, type Event } from '../../proto/gen/etcd/kv.js';
import { decodeKeyValue, encodeKeyValue } from '../mvcc/kv-codec.js';

const GONE = 2;

/** What a front end needs besides the store to answer a Range or serve a Watch as the core would. */
export interface ReplicaContext {
  readonly clusterId: bigint;
  readonly memberId: bigint;
  readonly raftTerm: bigint;
  /** While auth is enabled every Range goes to the core (permissions live there). */
  readonly authEnabled: boolean;
  /** The member knows a leader (`hasleader` streams need one). */
  readonly hasLeader: boolean;
  /** The member is a learner (it serves no Watch). */
  readonly learner: boolean;
}

export function encodeChange(main: bigint, events: readonly (Event | undefined)[]): Buffer {
  const records = events.map((e) => (e === undefined ? undefined : encodeKeyValue(e.kv!)));
  let size = 12;
  for (const r of records) size += 5 + (r?.length ?? 0);
  const b = Buffer.allocUnsafe(size);
  b.writeDoubleLE(Number(main), 0);
  b.writeUInt32LE(events.length, 8);
  let at = 12;
  for (let i = 0; i < events.length; i++) {
    const r = records[i];
    b[at] = r === undefined ? GONE : events[i]!.type === Event_EventType.DELETE ? 1 : 0;
    b.writeUInt32LE(r?.length ?? 0, at + 1);
    at += 5;
    if (r !== undefined) {
      r.copy(b, at);
      at += r.length;
    }
  }
  return b;
}

/** A change's main revision and events (`undefined` where a compaction removed one). */
export function decodeChange(payload: Buffer): { readonly main: bigint; readonly events: (Event | undefined)[] } {
  const main = BigInt(payload.readDoubleLE(0));
  const n = payload.readUInt32LE(8);
  const events = new Array<Event | undefined>(n);
  let at = 12;
  for (let i = 0; i < n; i++) {
    const type = payload[at]!;
    const length = payload.readUInt32LE(at + 1);
    at += 5;
    if (at + length > payload.length) throw new Error(`cut change record: event ${i} of ${n}`);
    if (type === GONE) {
      events[i] = undefined;
      continue;
    }
    const kv = decodeKeyValue(Buffer.from(payload.subarray(at, at + length)));
    at += length;
    events[i] = { type: type === 1 ? Event_EventType.DELETE : Event_EventType.PUT, kv, prevKv: undefined };
  }
  return { main, events };
}

export function encodeRevision(revision: bigint): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeDoubleLE(Number(revision), 0);
  return b;
}

export function decodeRevision(payload: Buffer): bigint {
  return BigInt(payload.readDoubleLE(0));
}

export function encodeContext(c: ReplicaContext): Buffer {
  const b = Buffer.allocUnsafe(25);
  b.writeBigUInt64LE(c.clusterId, 0);
  b.writeBigUInt64LE(c.memberId, 8);
  b.writeBigUInt64LE(c.raftTerm, 16);
  b[24] = (c.authEnabled ? 1 : 0) | (c.hasLeader ? 2 : 0) | (c.learner ? 4 : 0);
  return b;
}

export function decodeContext(payload: Buffer): ReplicaContext {
  const flags = payload[24]!;
  return {
    clusterId: payload.readBigUInt64LE(0),
    memberId: payload.readBigUInt64LE(8),
    raftTerm: payload.readBigUInt64LE(16),
    authEnabled: (flags & 1) !== 0,
    hasLeader: (flags & 2) !== 0,
    learner: (flags & 4) !== 0,
  };
}

/** Whether two contexts are the same. */
export function sameContext(a: ReplicaContext | undefined, b: ReplicaContext): boolean {
  return (
    a !== undefined &&
    a.clusterId === b.clusterId &&
    a.memberId === b.memberId &&
    a.raftTerm === b.raftTerm &&
    a.authEnabled === b.authEnabled &&
    a.hasLeader === b.hasLeader &&
    a.learner === b.learner
  );
}
