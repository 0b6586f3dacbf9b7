/**
 * Gathers one pass's `Observed` through the ports: the platform's view of the member slots,
 * then every running member's probes (/version, /health, /metrics, Maintenance.Status, alarms,
 * a linearizable read, auth status) all in parallel, and the membership from one reachable
 * member (the leader when known).
 *
 * Contract: the whole gathering is bounded by `timeoutMs` (one AbortSignal for every call), so
 * a dead or hung member never stalls a pass: its probe is then absent, or partial (a member
 * that answered /version but not /health is reported unhealthy). Only a failure of the
 * platform itself fails the observation.
 */
import { setMaxListeners } from 'node:events';
import type { KvstoreCluster } from '../api/types.js';
import type { ClusterMember, MemberProbe, Observed, ObservedMember, SnapshotOutcome } from './model.js';
import { portFail, portOk, type MemberAdmin, type MemberPlatform, type PlatformSlot, type PortResult, type RehearsalPlatform } from './ports.js';
import { observeRehearsal } from './rehearsal-observe.js';

export interface ObserveDeps {
  readonly platform: MemberPlatform;
  readonly admin: MemberAdmin;
  /** Where upgrade rehearsals run (absent: a rehearsal under way is observed as failed). */
  readonly rehearsal?: RehearsalPlatform;
  /** Bound of the whole observation (default 5 s). */
  readonly timeoutMs?: number;
}

const valueOr = <T>(r: PortResult<T>, fallback: T): T => (r.ok ? r.value : fallback);

async function probeMember(admin: MemberAdmin, url: string, signal: AbortSignal): Promise<MemberProbe | undefined> {
  const [version, health, metrics, status, alarms, read, auth] = await Promise.all([
    admin.version(url, signal),
    admin.health(url, signal),
    admin.metrics(url, signal),
    admin.status(url, signal),
    admin.alarms(url, signal),
    admin.linearizableRead(url, signal),
    admin.authEnabled(url, signal),
  ]);
  if (!version.ok && !health.ok && !status.ok) return undefined;
  const v = valueOr(version, { server: '', cluster: '' });
  const m = valueOr(metrics, { isLeader: false });
  const s = valueOr(status, { memberId: '', leaderId: '', revision: 0, raftIndex: 0, isLearner: false, version: '' });
  return {
    serverVersion: v.server || s.version,
    clusterVersion: v.cluster,
    healthy: valueOr(health, false),
    linearizableRead: read.ok,
    isLeader: m.isLeader,
    ...(m.v2StoreBytes === undefined ? {} : { v2StoreBytes: m.v2StoreBytes }),
    memberId: s.memberId,
    revision: s.revision,
    alarms: valueOr(alarms, []),
    isLearner: s.isLearner,
    authEnabled: auth.ok ? auth.value : undefined,
  };
}

function toObserved(slot: PlatformSlot, probe: MemberProbe | undefined): ObservedMember {
  return {
    name: slot.name,
    ordinal: slot.ordinal,
    exists: slot.exists,
    running: slot.running,
    runVersion: slot.runVersion,
    clientURL: slot.clientURL,
    peerURL: slot.peerURL,
    ...(slot.dataLost === true ? { dataLost: true } : {}),
    ...(probe === undefined ? {} : { probe }),
  };
}

async function membership(admin: MemberAdmin, members: readonly ObservedMember[], signal: AbortSignal): Promise<readonly ClusterMember[] | undefined> {
  const reachable = members.filter((m) => m.probe !== undefined);
  const ordered = [...reachable.filter((m) => m.probe?.isLeader === true), ...reachable.filter((m) => m.probe?.isLeader !== true)];
  for (const m of ordered) {
    const r = await admin.memberList(m.clientURL, signal);
    if (r.ok) return r.value;
  }
  return undefined;
}

/** One observation of `cluster` at `now` (RFC 3339). */
export async function observe(
  cluster: KvstoreCluster,
  deps: ObserveDeps,
  now: string,
  snapshotOutcome: SnapshotOutcome | undefined,
): Promise<PortResult<Observed>> {
  // A timer of our own (AbortSignal.timeout does not keep the process alive while waiting).
  const bound = new AbortController();
  setMaxListeners(0, bound.signal); // every probe of every member listens to it
  const timer = setTimeout(() => bound.abort(new Error('observation timed out')), deps.timeoutMs ?? 5000);
  try {
    return await gather(cluster, deps, now, snapshotOutcome, bound.signal);
  } finally {
    clearTimeout(timer);
  }
}

async function gather(
  cluster: KvstoreCluster,
  deps: ObserveDeps,
  now: string,
  snapshotOutcome: SnapshotOutcome | undefined,
  signal: AbortSignal,
): Promise<PortResult<Observed>> {
  const view = await deps.platform.observe(cluster, signal);
  if (!view.ok) return portFail(`observe platform: ${view.error}`);
  const members = await Promise.all(
    view.value.slots.map(async (slot) => {
      const probe = slot.exists && slot.running && slot.clientURL !== '' ? await probeMember(deps.admin, slot.clientURL, signal) : undefined;
      return toObserved(slot, probe);
    }),
  );
  const clusterMembers = await membership(deps.admin, members, signal);
  const rehearsal = await observeRehearsal(cluster, deps.rehearsal, deps.admin, signal);
  if (!rehearsal.ok) return portFail(`observe rehearsal: ${rehearsal.error}`);
  return portOk({
    now,
    objectsExist: view.value.objectsExist,
    templateVersion: view.value.templateVersion,
    members,
    ...(clusterMembers === undefined ? {} : { clusterMembers }),
    ...(snapshotOutcome === undefined ? {} : { snapshotOutcome }),
    ...(rehearsal.value === undefined ? {} : { rehearsal: rehearsal.value }),
  });
}
