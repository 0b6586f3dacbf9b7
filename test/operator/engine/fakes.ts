/**
 * In-memory fakes of the engine's ports for engine tests: a platform of `size` slots, members
 * answering from a table (or hanging until aborted), a snapshot store, sinks and metrics that
 * record what they were told, a settable clock.
 */
import type { KvstoreCluster, KvstoreClusterStatus } from '../../../operator/api/types.js';
import type { PlannedEvent } from '../../../operator/controller/model.js';
import {
  portFail,
  portOk,
  type EngineLogger,
  type EngineMetrics,
  type MemberAdmin,
  type MemberPlatform,
  type PortResult,
  type SnapshotFile,
  type SnapshotStore,
} from '../../../operator/controller/ports.js';

export const urlOf = (i: number): string => `http://127.0.0.${10 + i}:2379`;

export function cluster(status?: KvstoreClusterStatus): KvstoreCluster {
  return {
    apiVersion: 'kvstore.io/v1alpha1',
    kind: 'KvstoreCluster',
    metadata: { name: 'demo', namespace: 'ns', generation: 1 },
    spec: {
      size: 3,
      version: '3.4.0',
      image: 'kvstore/kvstore',
      storage: { size: '1Gi' },
      options: {},
      upgrade: { v2WaitSeconds: 1, v2ThresholdBytes: 50_000_000, memberHealthTimeoutSeconds: 300, snapshot: { volume: 'snapshots', keep: 3 }, rehearsal: false, rehearsalTimeoutSeconds: 300 },
      paused: false,
    },
    ...(status === undefined ? {} : { status }),
  };
}

export function emptyStatus(): KvstoreClusterStatus {
  return { phase: 'Running', observedGeneration: 1, clusterVersion: '3.4.0', readyMembers: '3/3', members: [], conditions: [] };
}

export class FakePlatform implements MemberPlatform {
  readonly calls: string[] = [];
  failOn: string | undefined;
  constructor(readonly size = 3) {}
  observe(): Promise<PortResult<import('../../../operator/controller/ports.js').PlatformView>> {
    return Promise.resolve(
      portOk({
        objectsExist: true,
        templateVersion: '3.4.0',
        replicas: this.size,
        slots: Array.from({ length: this.size }, (_, i) => ({
          name: `demo-${i}`, ordinal: i, exists: true, running: true, runVersion: '3.4.0', clientURL: urlOf(i), peerURL: `http://127.0.0.${10 + i}:2380`,
        })),
      }),
    );
  }
  private record(call: string): Promise<PortResult<void>> {
    this.calls.push(call);
    return Promise.resolve(this.failOn === call ? portFail(`${call} refused`) : portOk(undefined));
  }
  ensureObjects(_c: KvstoreCluster, version: string, replicas: number): Promise<PortResult<void>> {
    return this.record(`ensure ${version} ${replicas}`);
  }
  setTemplateVersion(_c: KvstoreCluster, version: string): Promise<PortResult<void>> {
    return this.record(`template ${version}`);
  }
  restartMember(_c: KvstoreCluster, name: string): Promise<PortResult<void>> {
    return this.record(`restart ${name}`);
  }
  resetMember(_c: KvstoreCluster, name: string): Promise<PortResult<void>> {
    return this.record(`reset ${name}`);
  }
}

function hang<T>(signal?: AbortSignal): Promise<PortResult<T>> {
  return new Promise((resolve) => signal?.addEventListener('abort', () => resolve(portFail('aborted')), { once: true }));
}

/** Members 0…n-1 answer; member `leader` is the leader; `hung` members never answer until aborted. */
export class FakeAdmin implements MemberAdmin {
  hung = new Set<string>();
  snapshotError: string | undefined;
  readonly snapshots: string[] = [];
  constructor(private readonly leader = 0) {}
  private idx(url: string): number {
    return Number(/127\.0\.0\.(\d+)/.exec(url)?.[1] ?? 0) - 10;
  }
  private answer<T>(url: string, v: T, signal?: AbortSignal): Promise<PortResult<T>> {
    return this.hung.has(url) ? hang(signal) : Promise.resolve(portOk(v));
  }
  version(url: string, s?: AbortSignal) { return this.answer(url, { server: '3.4.0', cluster: '3.4.0' }, s); }
  health(url: string, s?: AbortSignal) { return this.answer(url, true, s); }
  metrics(url: string, s?: AbortSignal) { return this.answer(url, { isLeader: this.idx(url) === this.leader, v2StoreBytes: 0 }, s); }
  status(url: string, s?: AbortSignal) {
    const i = this.idx(url);
    return this.answer(url, { memberId: `000000000000000${i + 1}`, leaderId: `000000000000000${this.leader + 1}`, revision: 100, raftIndex: 100, isLearner: false, version: '3.4.0' }, s);
  }
  alarms(url: string, s?: AbortSignal) { return this.answer<readonly string[]>(url, [], s); }
  linearizableRead(url: string, s?: AbortSignal) { return this.answer<void>(url, undefined, s); }
  authEnabled(url: string, s?: AbortSignal) { return this.answer(url, false, s); }
  memberList(url: string, s?: AbortSignal) {
    return this.answer(url, [0, 1, 2].map((i) => ({ id: `000000000000000${i + 1}`, name: `demo-${i}`, peerURLs: [`http://127.0.0.${10 + i}:2380`], isLearner: false })), s);
  }
  /** Membership calls as `<call> <url> <arg>`. */
  readonly membership: string[] = [];
  /** When set, addLearner fails with this error. */
  addError: string | undefined;
  addLearner(url: string, peerURL: string): Promise<PortResult<string>> {
    this.membership.push(`add ${url} ${peerURL}`);
    if (this.addError !== undefined) return Promise.resolve(portFail(this.addError));
    return Promise.resolve(portOk('0000000000000009'));
  }
  promote(url: string, id: string): Promise<PortResult<void>> {
    this.membership.push(`promote ${url} ${id}`);
    return Promise.resolve(portOk(undefined));
  }
  remove(url: string, id: string): Promise<PortResult<void>> {
    this.membership.push(`remove ${url} ${id}`);
    return Promise.resolve(portOk(undefined));
  }
  snapshot(url: string, file: string): Promise<PortResult<SnapshotFile>> {
    this.snapshots.push(`${url} ${file}`);
    if (this.snapshotError !== undefined) return Promise.resolve(portFail(this.snapshotError));
    return Promise.resolve(portOk({ file, sha256: 'ab'.repeat(32), revision: 100, size: 4128 }));
  }
  keyCount(): Promise<PortResult<number>> {
    return Promise.resolve(portOk(42));
  }
  close(): void {}
}

export class FakeSnapshots implements SnapshotStore {
  pruned: number[] = [];
  pathOf(_c: KvstoreCluster, name: string): string { return `/snap/${name}`; }
  prepare(): Promise<PortResult<void>> { return Promise.resolve(portOk(undefined)); }
  list(): Promise<PortResult<readonly string[]>> { return Promise.resolve(portOk([])); }
  prune(_c: KvstoreCluster, keep: number): Promise<PortResult<readonly string[]>> {
    this.pruned.push(keep);
    return Promise.resolve(portOk([]));
  }
}

export class Recorder {
  readonly statuses: KvstoreClusterStatus[] = [];
  readonly events: PlannedEvent[] = [];
  readonly counted: string[] = [];
  readonly lines: string[] = [];
  readonly status = { write: (_c: KvstoreCluster, s: KvstoreClusterStatus) => { this.statuses.push(s); return Promise.resolve(portOk(undefined)); } };
  readonly eventSink = { emit: (_c: KvstoreCluster, e: PlannedEvent) => { this.events.push(e); return Promise.resolve(); } };
  readonly metrics: EngineMetrics = {
    upgradeStarted: (c) => this.counted.push(`started ${c}`),
    upgradeCompleted: (c) => this.counted.push(`completed ${c}`),
    upgradeBlocked: (c) => this.counted.push(`blocked ${c}`),
    memberUpgradeDuration: (c, s) => this.counted.push(`duration ${c} ${s}`),
    reconcileError: (c) => this.counted.push(`error ${c}`),
  };
  readonly logger: EngineLogger = {
    info: (f, m) => this.lines.push(`info ${m} ${JSON.stringify(f)}`),
    warn: (f, m) => this.lines.push(`warn ${m} ${JSON.stringify(f)}`),
    error: (f, m) => this.lines.push(`error ${m} ${JSON.stringify(f)}`),
    debug: () => undefined,
  };
}
