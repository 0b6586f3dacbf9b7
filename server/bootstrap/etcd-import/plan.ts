/**
 * The pure part of importing an etcd 3.4 data dir: from etcd's WAL (and the consistent index
 * of its bbolt backend) derive what kvstore's data dir must hold besides the keyspace:
 * - the member and cluster ids: those of etcd's WAL metadata, unchanged;
 * - the member list: replayed from the conf-change entries of the log, which must therefore
 *   start at index 1 (a data dir made by `etcdctl snapshot restore`, or an etcd member whose log
 *   was never compacted); AddNode of a learner promotes it, as etcd 3.4;
 * - kvstore's log: no entries, etcd's hard state, a marker at the commit index with the
 *   members as voters/learners; the backend's consistent index = the commit index.
 * Refused: entries after the commit index (never acknowledged, and dropping them is not ours to
 * decide), conf change v2 entries, and normal entries with data after the backend's consistent
 * index (etcd had not applied them; kvstore cannot replay etcd's requests).
 */
import type { MemberRecord } from '../../membership/membership.js';
import type { HardState, SnapshotMetadata } from '../../raft/log-types.js';
import type { EtcdEntry, EtcdWal } from '../../wal/etcd/index.js';
import { readFields } from '../../wal/etcd/proto-fields.js';

export interface ImportPlan {
  readonly memberId: bigint;
  readonly clusterId: bigint;
  /** Sorted by id. */
  readonly members: readonly MemberRecord[];
  readonly removed: readonly bigint[];
  readonly hardState: HardState;
  readonly marker: SnapshotMetadata;
  readonly consistentIndex: bigint;
}

export type ImportPlanOutcome = { readonly ok: true; readonly plan: ImportPlan } | { readonly ok: false; readonly reason: string };

const ConfChangeType = { AddNode: 0, RemoveNode: 1, UpdateNode: 2, AddLearnerNode: 3 } as const;
const EntryKind = { Normal: 0, ConfChange: 1 } as const;

/** Name and peer URLs from a conf change's context (etcd's JSON member; its id is read from NodeID, exact). */
function contextMember(context: Buffer | undefined): { name: string; peerURLs: string[] } {
  if (context === undefined || context.length === 0) return { name: '', peerURLs: [] };
  const parsed = JSON.parse(context.toString('utf8')) as { name?: unknown; peerURLs?: unknown };
  return {
    name: typeof parsed.name === 'string' ? parsed.name : '',
    peerURLs: Array.isArray(parsed.peerURLs) ? parsed.peerURLs.filter((u): u is string => typeof u === 'string') : [],
  };
}

function applyConfChange(members: Map<bigint, MemberRecord>, removed: Set<bigint>, e: EtcdEntry): void {
  const f = readFields(e.data);
  const type = Number(f.varints.get(2) ?? 0n);
  const id = f.varints.get(3) ?? 0n;
  const ctx = contextMember(f.bytes.get(4));
  const known = members.get(id);
  if (type === ConfChangeType.RemoveNode) {
    members.delete(id);
    removed.add(id);
  } else if (type === ConfChangeType.UpdateNode) {
    if (known !== undefined) members.set(id, { ...known, peerURLs: ctx.peerURLs });
  } else if (type === ConfChangeType.AddNode && known !== undefined) {
    members.set(id, { ...known, isLearner: false });
  } else if (type === ConfChangeType.AddNode || type === ConfChangeType.AddLearnerNode) {
    members.set(id, { id, name: ctx.name, peerURLs: ctx.peerURLs, clientURLs: [], isLearner: type === ConfChangeType.AddLearnerNode });
  }
}

export function planImport(wal: EtcdWal, backendConsistentIndex: bigint): ImportPlanOutcome {
  const { entries, hardState } = wal;
  const commit = hardState.commit;
  if (wal.memberId === 0n || wal.clusterId === 0n) return { ok: false, reason: 'the WAL metadata holds no member or cluster id' };
  if (entries.length === 0 || entries[0]!.index !== 1) {
    return { ok: false, reason: 'the WAL does not hold the log from index 1 (its founding entries); restore a snapshot with etcdctl snapshot restore and start on that' };
  }
  const last = entries[entries.length - 1]!;
  if (commit < 1 || last.index > commit) return { ok: false, reason: `the WAL holds entries after its commit index ${commit} (up to ${last.index})` };
  const members = new Map<bigint, MemberRecord>();
  const removed = new Set<bigint>();
  for (const e of entries) {
    if (e.type === EntryKind.ConfChange) applyConfChange(members, removed, e);
    else if (e.type !== EntryKind.Normal) return { ok: false, reason: `entry ${e.index} has type ${e.type} (conf change v2), which etcd 3.4 does not write` };
    else if (e.data.length > 0 && BigInt(e.index) > backendConsistentIndex) {
      return { ok: false, reason: `entry ${e.index} is committed but not applied to the backend (consistent index ${backendConsistentIndex})` };
    }
  }
  if (!members.has(wal.memberId)) return { ok: false, reason: `member ${wal.memberId.toString(16)} of the WAL metadata is not in the log's member list` };
  const sorted = [...members.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const atCommit = entries[commit - 1]!;
  return {
    ok: true,
    plan: {
      memberId: wal.memberId,
      clusterId: wal.clusterId,
      members: sorted,
      removed: [...removed].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      hardState: { term: hardState.term, vote: hardState.vote, commit },
      marker: {
        index: commit,
        term: atCommit.term,
        confState: { voters: sorted.filter((m) => !m.isLearner).map((m) => m.id), learners: sorted.filter((m) => m.isLearner).map((m) => m.id) },
      },
      consistentIndex: BigInt(commit),
    },
  };
}
