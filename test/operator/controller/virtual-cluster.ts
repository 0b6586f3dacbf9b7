/**
 * A virtual kvstore cluster and executor for driving reconcile pass after pass in memory:
 * members restart (down for `restartPasses` observations, then back at the template version, a
 * restarted leader hands leadership to the lowest running member), writes advance every running
 * member's revision, the cluster version follows the lowest member line once every member runs
 * (one observation later), snapshots succeed unless told otherwise, a rehearsal's scratch member
 * starts (`rehearsalPasses` observations) and serves the snapshot's figures unless told otherwise
 * (`rehearsal: 'serves-fewer-keys' | 'exits' | 'never-ready'`). Virtual time advances by each
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
  exists: boolean;
  membership: 'voting' | 'learner' | 'none';
  /** Its data is gone (the platform reports it; the member stays down until reset). */
  dataLost?: boolean;
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
  rehearsalPasses = 1;
  rehearsal: 'ok' | 'serves-fewer-keys' | 'exits' | 'never-ready' = 'ok';
  /** The rehearsal's scratch member, while one exists. */
  scratch: { id: string; version: string; downFor: number; revision: number } | undefined;
  /** Keys every snapshot holds. */
  readonly snapshotKeys = 42;
  /** Every action executed, in order, with the virtual time it ran at. */
  readonly executed: { readonly at: string; readonly action: Action }[] = [];
  readonly plans: Plan[] = [];
  /** spec.size as the platform sees it (slots are listed up to max(existing, size)). */
  size: number;

  constructor(name: string, version: string, size: number, leader: number, now: string) {
    this.name = name;
    this.members = Array.from({ length: size }, (_, ordinal) => ({ ordinal, version, downFor: 0, revision: 50, exists: true, membership: 'voting' as const }));
    this.template = version;
    this.size = size;
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
    if (this.scratch !== undefined && this.scratch.downFor > 0) this.scratch.downFor -= 1;
    for (const m of this.members) {
      if (m.downFor > 0) {
        m.downFor -= 1;
        if (m.downFor === 0) m.version = this.template;
      }
    }
    const top = Math.max(...this.members.map((m) => m.revision)) + 10;
    for (const m of this.members) if (m.exists && m.downFor === 0 && m.membership !== 'none') m.revision = m.revision === 0 ? 1 : top;
    if (this.pendingClusterVersion !== undefined) {
      this.clusterVersion = this.pendingClusterVersion;
      this.pendingClusterVersion = undefined;
    }
    const voters = this.members.filter((m) => m.membership === 'voting');
    if (voters.every((m) => m.downFor === 0)) {
      const lowest = voters.map((m) => lineOf(m.version)).sort()[0] ?? this.clusterVersion;
      if (lowest !== this.clusterVersion) this.pendingClusterVersion = lowest;
    }
  }

  private slot(ordinal: number): VMember {
    let m = this.members.find((x) => x.ordinal === ordinal);
    if (m === undefined) {
      m = { ordinal, version: '', downFor: 0, revision: 0, exists: false, membership: 'none' };
      this.members.push(m);
      this.members.sort((a, b) => a.ordinal - b.ordinal);
    }
    return m;
  }

  observe(): Observed {
    const existing = this.members.filter((m) => m.exists).reduce((n, m) => Math.max(n, m.ordinal + 1), 0);
    for (let i = 0; i < Math.max(existing, this.size); i++) this.slot(i);
    const listed = this.members.filter((m) => m.ordinal < Math.max(existing, this.size));
    const members: ObservedMember[] = listed.map((m) => {
      const base = {
        name: `${this.name}-${m.ordinal}`,
        ordinal: m.ordinal,
        exists: m.exists,
        running: m.exists && m.downFor === 0,
        runVersion: !m.exists ? '' : m.downFor === 0 ? m.version : this.template,
        clientURL: `http://127.0.1.${m.ordinal + 1}:2379`,
        peerURL: `http://127.0.1.${m.ordinal + 1}:2380`,
        ...(m.dataLost === true ? { dataLost: true } : {}),
      };
      if (!m.exists || m.downFor > 0 || m.membership === 'none') return base;
      return {
        ...base,
        probe: {
          serverVersion: m.version,
          clusterVersion: this.clusterVersion,
          healthy: true,
          linearizableRead: m.membership === 'voting',
          isLeader: m.ordinal === this.leader,
          v2StoreBytes: this.v2Bytes,
          memberId: idOf(m.ordinal),
          revision: m.revision,
          alarms: [],
          isLearner: m.membership === 'learner',
          authEnabled: false,
        },
      };
    });
    return {
      now: this.now,
      objectsExist: true,
      templateVersion: this.template,
      members,
      clusterMembers: this.members
        .filter((m) => m.membership !== 'none')
        .map((m) => ({ id: idOf(m.ordinal), name: m.exists ? `${this.name}-${m.ordinal}` : '', peerURLs: [`http://127.0.1.${m.ordinal + 1}:2380`], isLearner: m.membership === 'learner' })),
      ...(this.snapshotOutcome === undefined ? {} : { snapshotOutcome: this.snapshotOutcome }),
      ...(this.scratch === undefined ? {} : { rehearsal: this.scratchView(this.scratch) }),
    };
  }

  private scratchView(s: NonNullable<VirtualCluster['scratch']>): Observed['rehearsal'] {
    const expected = { revision: s.revision, keys: this.snapshotKeys };
    const logTail = `scratch ${s.id} at ${s.version}\n`;
    if (this.rehearsal === 'exits') return { id: s.id, phase: 'Failed', expected, error: 'the scratch member exited with code 1', logTail: `${logTail}panic: cannot read the backend\n` };
    if (s.downFor > 0 || this.rehearsal === 'never-ready') return { id: s.id, phase: 'Starting', expected, logTail };
    const keys = this.rehearsal === 'serves-fewer-keys' ? this.snapshotKeys - 1 : this.snapshotKeys;
    return { id: s.id, phase: 'Serving', expected, served: { healthy: true, revision: s.revision, keys }, logTail };
  }

  execute(plan: Plan): void {
    for (const action of plan.actions) {
      this.executed.push({ at: this.now, action });
      if (action.kind === 'SetTemplateVersion') this.template = action.version;
      if (action.kind === 'RestartMember') {
        const m = this.members.find((x) => `${this.name}-${x.ordinal}` === action.name);
        if (m === undefined) throw new Error(`no member ${action.name}`);
        m.downFor = this.restartPasses;
        if (m.ordinal === this.leader) this.leader = this.members.find((x) => x !== m && x.exists && x.downFor === 0 && x.membership === 'voting')?.ordinal ?? m.ordinal;
      }
      if (action.kind === 'EnsureObjects') {
        this.template = action.version;
        for (let i = 0; i < action.replicas; i++) {
          const m = this.slot(i);
          if (!m.exists) Object.assign(m, { exists: true, version: action.version, downFor: 1, revision: 0 });
        }
        for (const m of this.members) if (m.ordinal >= action.replicas) Object.assign(m, { exists: false, downFor: 0 });
      }
      if (action.kind === 'AddLearner') {
        const m = this.members.find((x) => `http://127.0.1.${x.ordinal + 1}:2380` === action.peerURL);
        if (m === undefined || m.membership !== 'none') throw new Error(`AddLearner ${action.peerURL}: not addable`);
        m.membership = 'learner';
      }
      if (action.kind === 'PromoteLearner') {
        const m = this.members.find((x) => idOf(x.ordinal) === action.memberId);
        if (m?.membership !== 'learner') throw new Error(`PromoteLearner ${action.memberId}: not a learner`);
        m.membership = 'voting';
      }
      if (action.kind === 'RemoveMember') {
        const m = this.members.find((x) => idOf(x.ordinal) === action.memberId);
        if (m === undefined || m.membership === 'none') throw new Error(`RemoveMember ${action.memberId}: not a member`);
        m.membership = 'none';
        if (m.ordinal === this.leader) this.leader = this.members.find((x) => x.membership === 'voting')?.ordinal ?? -1;
      }
      if (action.kind === 'ResetMember') {
        const m = this.members.find((x) => `${this.name}-${x.ordinal}` === action.name);
        if (m === undefined) throw new Error(`ResetMember ${action.name}`);
        Object.assign(m, { exists: true, version: this.template, downFor: 1, revision: 0, dataLost: false });
      }
      if (action.kind === 'StartRehearsal') {
        const revision = this.snapshotOutcome?.ok === true ? this.snapshotOutcome.record.revision : 0;
        this.scratch = { id: action.id, version: action.version, downFor: this.rehearsalPasses, revision };
      }
      if (action.kind === 'StopRehearsal') this.scratch = undefined;
      if (action.kind === 'TakeSnapshot') {
        const revision = this.members[this.leader]?.revision ?? 0;
        this.snapshotOutcome = this.failSnapshot
          ? { ok: false, forVersion: action.forVersion, error: 'stream interrupted' }
          : { ok: true, forVersion: action.forVersion, record: { file: action.file, sha256: 'cd'.repeat(32), revision, size: 8192, member: action.member, takenAt: this.now } };
      }
    }
  }

  /** The member stops answering for good (until reset). */
  fail(ordinal: number): void {
    const m = this.slot(ordinal);
    m.downFor = Number.MAX_SAFE_INTEGER;
    if (m.ordinal === this.leader) this.leader = this.members.find((x) => x !== m && x.exists && x.downFor === 0 && x.membership === 'voting')?.ordinal ?? -1;
  }

  /** The member's data is gone: the platform reports it and keeps it down (until reset). */
  loseData(ordinal: number): void {
    this.fail(ordinal);
    this.slot(ordinal).dataLost = true;
  }

  /** Forget what the operator process held in memory (an operator restart): only status survives. */
  restartOperator(): void {
    this.snapshotOutcome = undefined;
    this.scratch = undefined; // local mode: the new operator does not know the old scratch process
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
