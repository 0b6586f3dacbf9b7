/**
 * Loads the member list from the backend, or — for a member starting without data —
 * creates it from --initial-cluster (names and peer URLs; client URLs arrive when each
 * member publishes its attributes) and writes it durably. A member joining an existing
 * cluster lists only the others, as the cluster it asked listed them (their real ids: a member
 * replaced under a new id must be accepted as a peer, it may lead): the leader's log adds it
 * (as it was added, e.g. learner).
 */
import type { ServerConfig } from '../config/types.js';
import { initialMembers } from '../config/index.js';
import { decodeMember, Membership, type MemberRecord } from '../membership/membership.js';
import { Bucket, type Backend } from '../storage/backend.js';

export async function loadMembership(backend: Backend, config: ServerConfig, joinedOthers?: readonly MemberRecord[]): Promise<Membership> {
  const members: MemberRecord[] = [];
  const removed: bigint[] = [];
  for await (const [, v] of backend.iterate(Bucket.Members)) members.push(decodeMember(v));
  for await (const [k] of backend.iterate(Bucket.MembersRemoved)) removed.push(k.readBigUInt64BE(0));
  if (members.length > 0) return Membership.restore(members, removed);
  const local = config.initialClusterState === 'existing' ? config.name : undefined;
  const fresh = Membership.restore(
    joinedOthers !== undefined && joinedOthers.length > 0
      ? [...joinedOthers]
      : initialMembers(config).filter((m) => m.name !== local).map((m) => ({ id: m.id, name: m.name, peerURLs: [...m.peerUrls], clientURLs: [], isLearner: false })),
    [],
  );
  await backend.write(fresh.allOps(), { sync: true });
  return fresh;
}
