/**
 * The cluster's own records in the v2 store, as etcd 3.4 keeps them under `/0` (etcd's
 * etcdserver/api/membership/store.go): each applied membership change, published attribute
 * set and cluster version is one v2 write, so the v2 index counts them exactly as etcd's
 * does (a fresh one-member cluster's first user write is index 4: raftAttributes,
 * attributes, version). The keys API never reaches `/0` (user keys live under `/1`).
 *
 * | change (applied)                | v2 write                                                        |
 * |---------------------------------|-----------------------------------------------------------------|
 * | conf change AddNode / AddLearner | create `/0/members/<id>/raftAttributes` = `{"peerURLs":[…]}` (`"isLearner":true` for a learner) |
 * | AddNode of a learner (promote), peer-URL update | update that file                               |
 * | published attributes            | set `/0/members/<id>/attributes` = `{"name":…,"clientURLs":[…]}` (empty fields left out) |
 * | conf change RemoveNode          | delete `/0/members/<id>` (recursive), then create `/0/removed_members/<id>` = `""` |
 * | cluster version                 | set `/0/version` = `major.minor.patch`                          |
 *
 * `<id>` is the member id in lowercase hex without padding. Whether a member is listed is
 * read from these records themselves (as etcd validates a change against its v2 store), so
 * every member's v2 store takes the same writes even where its member list was filled in
 * another way (a joining member): a change etcd would refuse (adding a listed member,
 * updating an unlisted one) writes nothing. Pure: runs inside the apply step, at the same
 * log position on every member.
 */
import type { V2Store } from '../v2store/index.js';

/** Renders nothing time-dependent: every record is permanent. */
const NO_CLOCK = 0;

const hexId = (id: bigint): string => BigInt.asUintN(64, id).toString(16);
const memberDir = (id: bigint): string => `/0/members/${hexId(id)}`;

function raftAttributes(peerURLs: readonly string[], isLearner: boolean): string {
  return JSON.stringify(isLearner ? { peerURLs, isLearner: true } : { peerURLs });
}

/** The stored raft attributes of a listed member, or undefined. */
function storedRaftAttributes(v2: V2Store, id: bigint): { peerURLs: readonly string[]; isLearner: boolean } | undefined {
  const r = v2.get(`${memberDir(id)}/raftAttributes`, {}, NO_CLOCK);
  if (!r.ok || r.value.node?.value === undefined) return undefined;
  const parsed = JSON.parse(r.value.node.value) as { peerURLs?: string[]; isLearner?: boolean };
  return { peerURLs: parsed.peerURLs ?? [], isLearner: parsed.isLearner === true };
}

/**
 * A conf change AddNode / AddLearnerNode: creates the member's record, or promotes a listed
 * learner (AddNode); anything else about a listed member writes nothing.
 */
export function recordMemberAdded(v2: V2Store, id: bigint, peerURLs: readonly string[], isLearner: boolean): void {
  const stored = storedRaftAttributes(v2, id);
  if (stored === undefined) {
    v2.create(`${memberDir(id)}/raftAttributes`, { value: raftAttributes(peerURLs, isLearner) }, NO_CLOCK);
  } else if (stored.isLearner && !isLearner) {
    v2.update(`${memberDir(id)}/raftAttributes`, { value: raftAttributes(stored.peerURLs, false), refresh: false }, NO_CLOCK);
  }
}

/** A listed member's peer URLs changed. */
export function recordPeerUrls(v2: V2Store, id: bigint, peerURLs: readonly string[]): void {
  const stored = storedRaftAttributes(v2, id);
  if (stored === undefined) return;
  v2.update(`${memberDir(id)}/raftAttributes`, { value: raftAttributes(peerURLs, stored.isLearner), refresh: false }, NO_CLOCK);
}

/** A listed member published its name and client URLs. */
export function recordAttributes(v2: V2Store, id: bigint, name: string, clientURLs: readonly string[]): void {
  if (!v2.get(memberDir(id), {}, NO_CLOCK).ok) return;
  const attrs = { ...(name === '' ? {} : { name }), ...(clientURLs.length === 0 ? {} : { clientURLs }) };
  v2.set(`${memberDir(id)}/attributes`, { value: JSON.stringify(attrs), refresh: false }, NO_CLOCK);
}

/** A conf change RemoveNode of a listed member. */
export function recordMemberRemoved(v2: V2Store, id: bigint): void {
  if (!v2.delete(memberDir(id), { dir: true, recursive: true }, NO_CLOCK).ok) return;
  v2.create(`/0/removed_members/${hexId(id)}`, { value: '' }, NO_CLOCK);
}

/** The cluster version was set (even to the same value), as `major.minor.patch`. */
export function recordClusterVersion(v2: V2Store, version: string): void {
  v2.set('/0/version', { value: version, refresh: false }, NO_CLOCK);
}
