/**
 * Builders for reconcile table tests: a defaulted KvstoreCluster, observed member slots with
 * healthy probes by default, and small accessors on a Plan. Test-only.
 */
import type { KvstoreCluster, KvstoreClusterSpec, KvstoreClusterStatus, UpgradeStatus } from '../../../operator/api/types.js';
import type { ClusterMember, MemberProbe, Observed, ObservedMember, Plan } from '../../../operator/controller/model.js';

export const NOW = '2026-03-01T10:00:00Z';
export const NAME = 'demo';

export function spec(over: Partial<KvstoreClusterSpec> = {}): KvstoreClusterSpec {
  return {
    size: 3,
    version: '3.4.0',
    image: 'kvstore/kvstore',
    storage: { size: '1Gi' },
    options: {},
    upgrade: { v2WaitSeconds: 120, v2ThresholdBytes: 50_000_000, memberHealthTimeoutSeconds: 300, snapshot: { volume: 'snapshots', keep: 3 }, rehearsal: true, rehearsalTimeoutSeconds: 300 },
    paused: false,
    ...over,
  } as KvstoreClusterSpec;
}

export function cluster(s: Partial<KvstoreClusterSpec> = {}, status?: KvstoreClusterStatus, generation = 1): KvstoreCluster {
  return {
    apiVersion: 'kvstore.io/v1alpha1',
    kind: 'KvstoreCluster',
    metadata: { name: NAME, namespace: 'default', generation },
    spec: spec(s),
    ...(status === undefined ? {} : { status }),
  } as KvstoreCluster;
}

export function probe(version: string, over: Partial<MemberProbe> = {}): MemberProbe {
  const minor = version.split('.').slice(0, 2).join('.');
  return {
    serverVersion: version,
    clusterVersion: `${minor}.0`,
    healthy: true,
    linearizableRead: true,
    isLeader: false,
    v2StoreBytes: 1000,
    memberId: '',
    revision: 100,
    alarms: [],
    isLearner: false,
    authEnabled: false,
    ...over,
  };
}

export const idOf = (ordinal: number): string => (0x1000 + ordinal).toString(16).padStart(16, '0');

/** Slot `ordinal` running `version`; probe overrides merge into a healthy probe; `probe: null` = unreachable. */
export function member(ordinal: number, version: string, over: Partial<Omit<ObservedMember, 'probe'>> & { probe?: Partial<MemberProbe> | null } = {}): ObservedMember {
  const { probe: p, ...rest } = over;
  const name = `${NAME}-${ordinal}`;
  return {
    name,
    ordinal,
    exists: true,
    running: true,
    runVersion: version,
    clientURL: `http://127.0.0.${ordinal + 10}:2379`,
    peerURL: `http://127.0.0.${ordinal + 10}:2380`,
    ...rest,
    ...(p === null ? {} : { probe: probe(version, { memberId: idOf(ordinal), ...p }) }),
  };
}

export function clusterMembers(members: readonly ObservedMember[]): readonly ClusterMember[] {
  return members.filter((m) => m.exists).map((m) => ({ id: idOf(m.ordinal), name: m.name, peerURLs: [m.peerURL], isLearner: m.probe?.isLearner ?? false }));
}

/** `n` healthy members at `version`, member `leader` leading, membership as the members. */
export function healthy(version: string, n = 3, leader = 0, over: Partial<Observed> = {}): Observed {
  const members = Array.from({ length: n }, (_, i) => member(i, version, { probe: { isLeader: i === leader } }));
  return { now: NOW, objectsExist: true, templateVersion: version, members, clusterMembers: clusterMembers(members), ...over };
}

/** Replace slot `ordinal` of `o`. */
export function withMember(o: Observed, m: ObservedMember): Observed {
  return { ...o, members: o.members.map((x) => (x.ordinal === m.ordinal ? m : x)) };
}

/** A Running status with the given upgrade record and floor (conditions as a steady cluster has them). */
export function status(over: Partial<KvstoreClusterStatus> = {}, upgrade?: UpgradeStatus): KvstoreClusterStatus {
  return {
    phase: 'Running',
    observedGeneration: 1,
    clusterVersion: '3.4.0',
    readyMembers: '3/3',
    members: [],
    conditions: [],
    ...(upgrade === undefined ? {} : { upgrade }),
    ...over,
  };
}

export function condition(plan: Plan, type: string): { status: string; reason: string; message: string; lastTransitionTime: string } {
  const c = plan.status.conditions.find((x) => x.type === type);
  if (c === undefined) throw new Error(`no condition ${type}`);
  return c;
}

export const kinds = (plan: Plan): string[] => plan.actions.map((a) => a.kind);
export const reasons = (plan: Plan): string[] => plan.events.map((e) => e.reason);
