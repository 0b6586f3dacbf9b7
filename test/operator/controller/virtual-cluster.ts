/**
 * A virtual kvstore cluster and executor for driving reconcile pass after pass in memory:
 * members restart (down for `restartPasses` observations, then back at the template version, a
 * restarted leader hands leadership to the lowest running member), writes advance every running
 * member's revision, the cluster version follows the lowest member line once every member runs
 * (one observation later), snapshots succeed unless told otherwise. Virtual time advances by each
 * plan's requeueAfterSeconds. Test-only.
 */
import type { KvstoreCluster, KvstoreClusterSpec } from '../../../operator/api/types.js';
import type { Action, Observed, ObservedMember, Plan, SnapshotOutcome } from '../../../operator/controller/model.js';
import { reconcile } from '../../../operator/controller/reconcile.js';
import { idOf } from './fixtures.js';

interface VMember {
  readonly ordinal: number;
  version: string;
  downFor: number;
  revision: number;
}

const lineOf = (v: string): string => `${v.split('.').slice(0, 2).join('.')}.0`;

export class VirtualCluster {
  readonly name: string;
  readonly members: VMember[];
  template: string;
  leader: number;
  clusterVersion: string;
  pendingClusterVersion: string | undefined;
  snapshotOutcome: SnapshotOutcome | undefined;
  nowMs: number;
  v2Bytes = 1000;
  restartPasses = 2;
  failSnapshot = false;
  /** Every action executed, in order, with the virtual time it ran at. */
  readonly executed: { readonly at: string; readonly action: Action }[] = [];
  readonly plans: Plan[] = [];

  constructor(name: string, version: string, size: number, leader: number, now: string) {
    this.name = name;
    this.members = Array.from({ length: size }, (_, ordinal) => ({ ordinal, version, downFor: 0, revision: 50 }));
    this.template = version;
    this.leader = leader;
    this.clusterVersion = lineOf(version);
    this.nowMs = Date.parse(now);
  }

  get now(): string {
    return new Date(this.nowMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  /** Time passes: restarted members come back, writes land, the cluster version catches up. */
  tick(seconds: number): void {
    this.nowMs += seconds * 1000;
    for (const m of this.members) {
      if (m.downFor > 0) {
        m.downFor -= 1;
        if (m.downFor === 0) m.version = this.template;
      }
    }
    const top = Math.max(...this.members.map((m) => m.revision)) + 10;
    for (const m of this.members) if (m.downFor === 0) m.revision = top;
    if (this.pendingClusterVersion !== undefined) {
      this.clusterVersion = this.pendingClusterVersion;
      this.pendingClusterVersion = undefined;
    }
    if (this.members.every((m) => m.downFor === 0)) {
      const lowest = this.members.map((m) => lineOf(m.version)).sort()[0] ?? this.clusterVersion;
      if (lowest !== this.clusterVersion) this.pendingClusterVersion = lowest;
    }
  }

  observe(): Observed {
    const members: ObservedMember[] = this.members.map((m) => {
      const base = {
        name: `${this.name}-${m.ordinal}`,
        ordinal: m.ordinal,
        exists: true,
        running: m.downFor === 0,
        runVersion: m.downFor === 0 ? m.version : this.template,
        clientURL: `http://127.0.1.${m.ordinal + 1}:2379`,
        peerURL: `http://127.0.1.${m.ordinal + 1}:2380`,
      };
      if (m.downFor > 0) return base;
      return {
        ...base,
        probe: {
          serverVersion: m.version,
          clusterVersion: this.clusterVersion,
          healthy: true,
          linearizableRead: true,
          isLeader: m.ordinal === this.leader,
          v2StoreBytes: this.v2Bytes,
          memberId: idOf(m.ordinal),
          revision: m.revision,
          alarms: [],
          isLearner: false,
          authEnabled: false,
        },
      };
    });
    return {
      now: this.now,
      objectsExist: true,
      templateVersion: this.template,
      members,
      clusterMembers: members.map((m) => ({ id: idOf(m.ordinal), name: m.name, peerURLs: [m.peerURL], isLearner: false })),
      ...(this.snapshotOutcome === undefined ? {} : { snapshotOutcome: this.snapshotOutcome }),
    };
  }

  execute(plan: Plan): void {
    for (const action of plan.actions) {
      this.executed.push({ at: this.now, action });
      if (action.kind === 'SetTemplateVersion') this.template = action.version;
      if (action.kind === 'RestartMember') {
        const m = this.members.find((x) => `${this.name}-${x.ordinal}` === action.name);
        if (m === undefined) throw new Error(`no member ${action.name}`);
        m.downFor = this.restartPasses;
        if (m.ordinal === this.leader) this.leader = this.members.find((x) => x !== m && x.downFor === 0)?.ordinal ?? m.ordinal;
      }
      if (action.kind === 'TakeSnapshot') {
        const revision = this.members[this.leader]?.revision ?? 0;
        this.snapshotOutcome = this.failSnapshot
          ? { ok: false, forVersion: action.forVersion, error: 'stream interrupted' }
          : { ok: true, forVersion: action.forVersion, record: { file: action.file, sha256: 'cd'.repeat(32), revision, size: 8192, member: action.member, takenAt: this.now } };
      }
    }
  }

  /** Forget what the operator process held in memory (an operator restart): only status survives. */
  restartOperator(): void {
    this.snapshotOutcome = undefined;
  }

  restarts(): string[] {
    return this.executed.flatMap((e) => (e.action.kind === 'RestartMember' ? [e.action.name] : []));
  }
}

export function makeCluster(name: string, spec: KvstoreClusterSpec): KvstoreCluster {
  return { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name, namespace: 'default', generation: 1 }, spec } as KvstoreCluster;
}

/** Run passes until `done(plan)` or `max` passes; returns the cluster with the last status. */
export function drive(vc: VirtualCluster, start: KvstoreCluster, done: (p: Plan) => boolean, max = 200): KvstoreCluster {
  let c = start;
  for (let i = 0; i < max; i++) {
    const plan = reconcile(c, vc.observe());
    vc.plans.push(plan);
    vc.execute(plan);
    c = { ...c, status: plan.status };
    if (done(plan)) return c;
    vc.tick(plan.requeueAfterSeconds ?? 30);
  }
  throw new Error(`not done after ${max} passes: ${JSON.stringify(c.status?.upgrade)}`);
}
