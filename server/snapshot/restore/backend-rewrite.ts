/**
 * How a snapshot's buckets become the restored member's backend (pure):
 * - `key`, `lease`, `alarm`, `auth`, `authUsers`, `authRoles` are copied as they are (kvstore
 *   keeps etcd's encodings; MVCC revisions and compaction marks are therefore kept);
 * - `meta`: copied except `consistent_index` (set to the plan's index) and 3.5's `term` and
 *   `confState` (they describe the old cluster's log);
 * - `cluster`: copied except kvstore's `v2store` (a restored member starts with a fresh v2 key
 *   space, as etcd's restore does);
 * - `members`, `members_removed`: replaced by the new member list;
 * - any other bucket is skipped (kvstore has no place for it) and reported.
 */
import { Membership, type MemberRecord } from '../../membership/membership.js';
import { consistentIndexOp } from '../../mvcc/meta.js';
import { Bucket, type BackendOp } from '../../storage/backend.js';

const COPIED: ReadonlySet<string> = new Set<string>([Bucket.Key, Bucket.Meta, Bucket.Lease, Bucket.Alarm, Bucket.Cluster, Bucket.Auth, Bucket.AuthUsers, Bucket.AuthRoles]);
const DROPPED_META: ReadonlySet<string> = new Set(['consistent_index', 'term', 'confState']);
const DROPPED_CLUSTER: ReadonlySet<string> = new Set(['v2store']);

/** What happens to a bucket of the snapshot. */
export type BucketFate = 'copy' | 'replace' | 'skip';

export function bucketFate(name: string): BucketFate {
  if (name === Bucket.Members || name === Bucket.MembersRemoved) return 'replace';
  return COPIED.has(name) ? 'copy' : 'skip';
}

/** The op writing one snapshot entry of a copied bucket, or undefined when it is left out. */
export function copyOp(bucket: string, key: Buffer, value: Buffer): BackendOp | undefined {
  if (bucketFate(bucket) !== 'copy') return undefined;
  const k = key.toString('latin1');
  if (bucket === Bucket.Meta && DROPPED_META.has(k)) return undefined;
  if (bucket === Bucket.Cluster && DROPPED_CLUSTER.has(k)) return undefined;
  return { type: 'put', bucket: bucket as Bucket, key, value };
}

/** The ops written after every copied entry: the new member list (and removed ids) and the consistent index. */
export function finalOps(members: readonly MemberRecord[], consistentIndex: bigint, removed: readonly bigint[] = []): BackendOp[] {
  return [...Membership.restore(members, removed).allOps(), consistentIndexOp(consistentIndex)];
}
