/**
 * What every reconcile rule reads: the defaulted cluster, its previous status, the observation,
 * and derived views of the member slots. Built once per pass by reconcile.ts; read-only.
 */
import type { KvstoreCluster, KvstoreClusterSpec, KvstoreClusterStatus } from '../api/types.js';
import type { ClusterMember, ObservedMember, Observed } from './model.js';

export interface PlanContext {
  readonly name: string;
  /** metadata.namespace, '' when none (local mode). */
  readonly namespace: string;
  readonly spec: KvstoreClusterSpec;
  readonly generation: number;
  /** Status as last written (undefined on the first pass). */
  readonly prev: KvstoreClusterStatus | undefined;
  readonly observed: Observed;
  readonly now: string;
  /** Slots with ordinal < spec.size, by ordinal (the members the cluster should have). */
  readonly slots: readonly ObservedMember[];
}

export function makeContext(cluster: KvstoreCluster, observed: Observed): PlanContext {
  const slots = [...observed.members].filter((m) => m.ordinal < cluster.spec.size).sort((a, b) => a.ordinal - b.ordinal);
  return {
    name: cluster.metadata.name,
    namespace: cluster.metadata.namespace ?? '',
    spec: cluster.spec,
    generation: cluster.metadata.generation ?? cluster.status?.observedGeneration ?? 0,
    prev: cluster.status,
    observed,
    now: observed.now,
    slots,
  };
}

/** The version a member runs: what its /version says, else what the platform runs it with. */
export function memberVersion(m: ObservedMember): string {
  return m.probe?.serverVersion || m.runVersion;
}

/** Running, reachable, /health true and a linearizable read answered. */
export function memberReady(m: ObservedMember): boolean {
  return m.exists && m.running && m.probe !== undefined && m.probe.healthy && m.probe.linearizableRead;
}

/** Ready and its /version reports `version`. */
export function memberReadyAt(m: ObservedMember, version: string): boolean {
  return memberReady(m) && m.probe?.serverVersion === version;
}

/** The members among `slots` that report leadership. */
export function leadersOf(slots: readonly ObservedMember[]): readonly ObservedMember[] {
  return slots.filter((m) => m.probe?.isLeader === true);
}

export function slotByName(ctx: PlanContext, name: string): ObservedMember | undefined {
  return ctx.observed.members.find((m) => m.name === name);
}

/** Highest revision any reachable slot reports (0 when none). */
export function maxRevision(slots: readonly ObservedMember[]): number {
  return slots.reduce((acc, m) => Math.max(acc, m.probe?.revision ?? 0), 0);
}

/** Whether the membership entry `c` is slot `m` (by name, or by peer URL for a member not started yet). */
export function isSlotOf(m: ObservedMember, c: ClusterMember): boolean {
  return (c.name !== '' && c.name === m.name) || c.peerURLs.includes(m.peerURL);
}
