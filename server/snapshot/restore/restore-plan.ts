/**
 * The pure part of a restore: from the new membership (--name, --initial-cluster,
 * --initial-cluster-token, --initial-advertise-peer-urls) derive everything the data dir must
 * hold besides the snapshot's data, exactly as a founding member would derive it:
 * - member and cluster ids (ETCD-FACTS §7.1), hence a new cluster identity;
 * - the member list (names and peer URLs; client URLs arrive when members publish);
 * - the log: one AddNode entry per member at term 1, indexes 1…N (the founding entries), hard
 *   state {term 1, commit N} and a snapshot marker at {index N, term 1, voters = all members};
 * - the backend's consistent index N: the entries up to the marker count as applied.
 * Every member restored with the same flags gets the same log and backend.
 */
import type { Entry, HardState, SnapshotMetadata } from '../../raft/log-types.js';
import { bootstrapEntries } from '../../bootstrap/bootstrap-entries.js';
import { encodeWalMetadata } from '../../bootstrap/data-dir.js';
import { initialClusterId, initialMembers, memberIdFor, verifyBootstrap } from '../../config/index.js';
import type { InitialClusterMember } from '../../config/types.js';
import type { MemberRecord } from '../../membership/membership.js';

export interface RestoreTarget {
  readonly name: string;
  readonly initialCluster: readonly InitialClusterMember[];
  readonly initialClusterToken: string;
  readonly initialAdvertisePeerUrls: readonly string[];
}

export interface RestorePlan {
  readonly memberId: bigint;
  readonly clusterId: bigint;
  /** Sorted by id. */
  readonly members: readonly MemberRecord[];
  readonly walMetadata: Buffer;
  readonly entries: readonly Entry[];
  readonly hardState: HardState;
  readonly snapshot: SnapshotMetadata;
  readonly consistentIndex: bigint;
}

export type PlanOutcome = { readonly ok: true; readonly plan: RestorePlan } | { readonly ok: false; readonly message: string };

export function planRestore(t: RestoreTarget): PlanOutcome {
  const problem = verifyBootstrap({ ...t, initialClusterState: 'new' });
  if (problem !== undefined) return { ok: false, message: problem };
  const config = { initialCluster: t.initialCluster, initialClusterToken: t.initialClusterToken };
  const initial = initialMembers(config);
  const memberId = memberIdFor(t.initialAdvertisePeerUrls, t.initialClusterToken);
  const clusterId = initialClusterId(config);
  const members: MemberRecord[] = [...initial]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((m) => ({ id: m.id, name: m.name, peerURLs: [...m.peerUrls], clientURLs: [], isLearner: false }));
  const entries = bootstrapEntries(initial);
  const n = entries.length;
  return {
    ok: true,
    plan: {
      memberId,
      clusterId,
      members,
      walMetadata: encodeWalMetadata(memberId, clusterId),
      entries,
      hardState: { term: 1, vote: 0n, commit: n },
      snapshot: { index: n, term: 1, confState: { voters: members.map((m) => m.id), learners: [] } },
      consistentIndex: BigInt(n),
    },
  };
}
