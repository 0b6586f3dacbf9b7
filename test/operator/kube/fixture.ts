/**
 * One in-process Kubernetes API server per test file (test/support/kube-api) with the kvstore
 * pod runner (every pod a real kvstore member on its own 127.x address), the KvstoreCluster
 * CRD installed, and the operator run in-process by `startKubeOperator` (the code behind
 * `kvstore-operator run`) with a URL resolver mapping pod DNS names to the pods' addresses.
 * Helpers read and patch clusters and list their events as raw JSON. KEEP_TEST_DIRS=1 keeps
 * the pods' directories and the operator log (`operator.log`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { clusterCrd } from '../../../operator/api/crd.js';
import type { KvstoreClusterStatus } from '../../../operator/api/types.js';
import { reconcile } from '../../../operator/controller/reconcile.js';
import type { LeaderElectionConfig } from '../../../operator/runtime/kube-controller/controller.js';
import { startKubeOperator, type KubeOperator } from '../../../operator/runtime/kube-controller/operator.js';
import { KvstorePodRunner } from '../../support/kube-api/kvstore-pod-runner.js';
import { startKubeApi, type KubeApi } from '../../support/kube-api/server.js';
import { eventually } from '../../support/eventually.js';

export const NS = 'default';
const BASE = '/apis/kvstore.io/v1alpha1/namespaces/default/kvstoreclusters';

export interface ClusterDoc {
  readonly metadata: { readonly name: string; readonly uid: string; readonly generation: number; readonly finalizers?: string[]; readonly resourceVersion: string };
  readonly spec: Record<string, unknown> & { readonly version: string };
  readonly status?: KvstoreClusterStatus;
}

export interface EventDoc {
  readonly metadata: { readonly name: string };
  readonly involvedObject: { readonly name: string; readonly kind: string };
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly count: number;
}

export interface KubeFixture {
  readonly api: KubeApi;
  readonly runner: KvstorePodRunner;
  readonly rootDir: string;
  readonly snapshotDir: string;
  readonly logFile: string;
  /** The pods' addresses in the format of the operator's `--member-address-map`, kept current by the runner. */
  readonly addressMapFile: string;
  startOperator(leaderElection?: LeaderElectionConfig): Promise<KubeOperator>;
  createCluster(name: string, spec: Record<string, unknown>): Promise<ClusterDoc>;
  /** Creates a Secret in the namespace with `data` (values base64-encoded here). */
  createSecret(name: string, data: Readonly<Record<string, string | Buffer>>): Promise<void>;
  getCluster(name: string): Promise<ClusterDoc | undefined>;
  patchSpec(name: string, spec: Record<string, unknown>): Promise<ClusterDoc>;
  /** Events about the cluster, in the order they were first recorded. */
  events(name: string): Promise<EventDoc[]>;
  /**
   * The events once at least `count` of them have `reason`: the operator writes a pass's status
   * before it records the pass's events, so a test that saw the status waits for them here.
   */
  eventsWith(name: string, reason: string, count?: number): Promise<EventDoc[]>;
  /** `host:port` client endpoints of the member pods. */
  endpoints(pods: readonly string[]): Promise<string[]>;
  /** The tail of each pod's output and the operator log, for failure messages. */
  describe(pods: readonly string[]): string;
  close(): Promise<void>;
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${res.url}: ${text}`);
  return JSON.parse(text) as T;
}

export async function startFixture(): Promise<KubeFixture> {
  // Pod volumes under the build directory, not /tmp: the pods' /tmp emptyDir mount would
  // otherwise also rewrite host paths starting with /tmp (see the pod runner).
  const rootDir = mkdtempSync(join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..'), '.kube-op-'));
  // The pods' addresses as a `--member-address-map` file, for an operator run as its own process.
  const addressMapFile = join(rootDir, 'member-addresses.json');
  const runner = new KvstorePodRunner({ rootDir, addressMapFile });
  const api = await startKubeApi({ podRunner: runner, probeIntervalMs: 200 });
  // Secret volumes of the pods: the Secrets as stored in this API server.
  runner.readSecrets(async (ns, name) => {
    const res = await fetch(`${api.url}/api/v1/namespaces/${ns}/secrets/${name}`);
    return res.status === 200 ? ((await res.json()) as { data?: Record<string, string> }).data ?? {} : undefined;
  });
  const posted = await fetch(`${api.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(clusterCrd()),
  });
  if (posted.status !== 201) throw new Error(`CRD not created: ${await posted.text()}`);
  const snapshotDir = join(rootDir, 'snapshots');
  const logFile = join(rootDir, 'operator.log');
  const logger = pino({ level: 'debug', base: { name: 'kvstore-operator' } }, pino.destination({ dest: logFile, sync: true, mkdir: true }));
  const operators: KubeOperator[] = [];
  const url = (name = ''): string => `${api.url}${BASE}${name === '' ? '' : `/${name}`}`;
  const fx: KubeFixture = {
    api,
    runner,
    rootDir,
    snapshotDir,
    logFile,
    addressMapFile,
    async startOperator(leaderElection) {
      const r = await startKubeOperator({
        kubeConfig: api.kubeConfig(),
        namespace: NS,
        snapshotDir,
        reconcile,
        logger,
        metricsBind: { host: '127.0.0.1', port: 0 },
        resolveUrl: (u) => runner.addresses.resolve(u, NS),
        // The pods advertise their mapped local addresses (the pod runner rewrites their flags).
        resolvePeerUrl: (u) => runner.addresses.resolve(u, NS),
        ...(leaderElection === undefined ? {} : { leaderElection }),
      });
      if (!r.ok) throw new Error(r.error);
      operators.push(r.value);
      return r.value;
    },
    async createCluster(name, spec) {
      const body = { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name, namespace: NS }, spec };
      return json<ClusterDoc>(await fetch(url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    },
    async createSecret(name, data) {
      const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
      const type = 'tls.crt' in data ? 'kubernetes.io/tls' : 'Opaque';
      const body = { apiVersion: 'v1', kind: 'Secret', type, metadata: { name, namespace: NS }, data: encoded };
      await json(await fetch(`${api.url}/api/v1/namespaces/${NS}/secrets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    },
    async getCluster(name) {
      const res = await fetch(url(name));
      if (res.status === 404) return undefined;
      return json<ClusterDoc>(res);
    },
    async patchSpec(name, spec) {
      return json<ClusterDoc>(await fetch(url(name), { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec }) }));
    },
    async events(name) {
      const list = await json<{ items: EventDoc[] }>(await fetch(`${api.url}/api/v1/namespaces/${NS}/events`));
      const seq = (e: EventDoc): bigint => BigInt(`0x${e.metadata.name.slice(e.metadata.name.lastIndexOf('.') + 1)}`);
      return list.items.filter((e) => e.involvedObject.kind === 'KvstoreCluster' && e.involvedObject.name === name).sort((a, b) => (seq(a) < seq(b) ? -1 : seq(a) > seq(b) ? 1 : 0));
    },
    async eventsWith(name, reason, count = 1) {
      let last: EventDoc[] = [];
      return eventually(`${count} ${reason} event(s) of ${name}`, async () => {
        last = await this.events(name);
        return last.filter((e) => e.reason === reason).length >= count ? last : undefined;
      }, { describe: () => last.map((e) => e.reason).join(', ') });
    },
    async endpoints(pods) {
      return Promise.all(pods.map(async (p) => new URL(await runner.urlOf(p, 2379, NS)).host));
    },
    describe(pods) {
      return pods.map((p) => `${p}:\n${runner.logs(p, NS).split('\n').slice(-6).join('\n')}`).join('\n');
    },
    async close() {
      for (const o of operators) await o.stop().catch(() => undefined);
      await api.close();
      if (process.env.KEEP_TEST_DIRS !== '1') rmSync(rootDir, { recursive: true, force: true });
    },
  };
  return fx;
}

/** The condition `type` of a status, or undefined. */
export function condition(status: KvstoreClusterStatus | undefined, type: string): { status: string; reason: string; message: string } | undefined {
  return status?.conditions.find((c) => c.type === type);
}
