/**
 * After a snapshot image replaced the backend's contents: rebuilds every in-memory view of
 * the applied state from the backend — MVCC index, leases (with key attachments), alarms,
 * members, cluster version, the v2 key space and the auth store. The one place that knows the full list.
 */
import type { AlarmSet } from '../apply/alarms.js';
import { V2_KEY } from '../apply/applier.js';
import type { ClusterVersionState } from '../clusterversion/cluster-version-state.js';
import type { Lessor } from '../lease/lessor.js';
import { decodeMember, type MemberRecord, type Membership } from '../membership/membership.js';
import type { MvccStoreImpl } from '../mvcc/store.js';
import { Bucket, type Backend } from '../storage/backend.js';
import { V2Store } from '../v2store/index.js';
import { restoreLeases } from './lease-port.js';
import type { AuthStore } from '../auth/auth-store.js';
import { reloadAuth } from './auth.js';

export interface AppliedState {
  readonly backend: Backend;
  readonly store: MvccStoreImpl;
  readonly lessor: Lessor;
  readonly alarms: AlarmSet;
  readonly membership: Membership;
  readonly clusterVersion: ClusterVersionState;
  readonly v2: V2Store;
  readonly auth?: AuthStore;
}

export async function reloadAppliedState(s: AppliedState): Promise<void> {
  await s.store.reload();
  const leases = await restoreLeases(s.lessor, s.backend, s.store);
  if (!leases.ok) throw new Error(`cannot restore leases from the snapshot: ${leases.error.kind}`);
  const alarmKeys: Buffer[] = [];
  for await (const [k] of s.backend.iterate(Bucket.Alarm)) alarmKeys.push(Buffer.from(k));
  s.alarms.replace(alarmKeys);
  const members: MemberRecord[] = [];
  const removed: bigint[] = [];
  for await (const [, v] of s.backend.iterate(Bucket.Members)) members.push(decodeMember(Buffer.from(v)));
  for await (const [k] of s.backend.iterate(Bucket.MembersRemoved)) removed.push(k.readBigUInt64BE(0));
  s.membership.replace(members, removed);
  await s.clusterVersion.reload(s.backend);
  const v2 = await s.backend.get(Bucket.Cluster, V2_KEY);
  s.v2.restore(v2 === undefined ? new V2Store().toJSON() : JSON.parse(v2.toString('utf8')));
  if (s.auth) await reloadAuth(s.auth, s.backend);
}
