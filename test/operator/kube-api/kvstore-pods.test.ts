// The kvstore pod runner: a 3-pod StatefulSet whose pods are real kvstore members on their own
// 127.x addresses (pod DNS names in the flags mapped, image tag → KVSTORE_SERVER_VERSION, PVC →
// data directory) becomes ready and serves a put/get through etcdctl; with OnDelete, a deleted
// pod comes back from the new template (3.5.0) on the same address with the same data; a killed
// member is restarted in place.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, CoreV1Api, type KubeConfig, type V1StatefulSet } from '@kubernetes/client-node';
import { KvstorePodRunner } from '../../support/kube-api/kvstore-pod-runner.js';
import { startKubeApi, type KubeApi } from '../../support/kube-api/server.js';
import { etcdctl, eventually, makeTempDir } from '../../support/processes.js';
import { addressMapResolver } from '../../../operator/runtime/kube-platform/address-map.js';
import { join } from 'node:path';
import { getJson } from '../../support/member-http.js';

let api: KubeApi;
let kc: KubeConfig;
let runner: KvstorePodRunner;
const ns = 'default';
const BOUND = 60_000;

let mapFile: string;

before(async () => {
  mapFile = join(makeTempDir('kube-map'), 'members.json');
  runner = new KvstorePodRunner({ addressMapFile: mapFile });
  api = await startKubeApi({ podRunner: runner, probeIntervalMs: 200 });
  kc = api.kubeConfig();
});
after(async () => {
  await api.close();
});

function peer(pod: string): string {
  return `${pod}=http://${pod}.kv-peers.${ns}.svc:2380`;
}

function kvstoreSet(image: string): V1StatefulSet {
  return {
    metadata: { name: 'kv' },
    spec: {
      replicas: 3,
      serviceName: 'kv-peers',
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'OnDelete' },
      selector: { matchLabels: { app: 'kv' } },
      template: {
        metadata: { labels: { app: 'kv' } },
        spec: {
          containers: [{
            name: 'kvstore',
            image,
            command: ['kvstore'],
            args: [
              '--name=$(POD_NAME)',
              '--data-dir=/var/lib/kvstore/data',
              '--listen-client-urls=http://0.0.0.0:2379',
              '--advertise-client-urls=http://$(POD_NAME).kv-peers.$(POD_NAMESPACE).svc:2379',
              '--listen-peer-urls=http://0.0.0.0:2380',
              '--initial-advertise-peer-urls=http://$(POD_NAME).kv-peers.$(POD_NAMESPACE).svc:2380',
              `--initial-cluster=${['kv-0', 'kv-1', 'kv-2'].map(peer).join(',')}`,
              '--initial-cluster-state=new',
            ],
            env: [
              { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
            ],
            ports: [{ name: 'client', containerPort: 2379 }, { name: 'peer', containerPort: 2380 }],
            readinessProbe: { httpGet: { path: '/health', port: 'client' } },
            volumeMounts: [{ name: 'data', mountPath: '/var/lib/kvstore' }],
          }],
        },
      },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    },
  };
}

void test('a 3-pod StatefulSet of kvstore members becomes ready and serves put/get; OnDelete brings a pod back on the new image', { timeout: 4 * BOUND }, async () => {
  const apps = kc.makeApiClient(AppsV1Api);
  const core = kc.makeApiClient(CoreV1Api);
  await apps.createNamespacedStatefulSet({ namespace: ns, body: kvstoreSet('kvstore/kvstore:3.4.0') });
  const describe = (): string => ['kv-0', 'kv-1', 'kv-2'].map((p) => `${p}:\n${runner.logs(p).split('\n').slice(-8).join('\n')}`).join('\n');
  await eventually('3 ready kvstore pods', async () => {
    const s = await apps.readNamespacedStatefulSet({ name: 'kv', namespace: ns });
    return s.status?.readyReplicas === 3 ? true : undefined;
  }, { timeoutMs: BOUND, describe });

  const pod0 = await core.readNamespacedPod({ name: 'kv-0', namespace: ns });
  const client0 = await runner.urlOf('kv-0', 2379);
  assert.equal(new URL(client0).hostname, pod0.status?.podIP);
  assert.equal((await getJson(`${client0}/version`)).etcdserver, '3.4.0', 'the image tag selects the release line');
  // The cluster version is the members' line (decided before a member reports healthy).
  await eventually('cluster version 3.4.0', async () => ((await getJson(`${client0}/version`)).etcdcluster === '3.4.0' ? true : undefined));
  const endpoints = await Promise.all(['kv-0', 'kv-1', 'kv-2'].map(async (p) => new URL(await runner.urlOf(p, 2379)).host));
  assert.equal(new Set(endpoints.map((e) => e.split(':')[0])).size, 3, 'each pod on its own address');

  const put = await etcdctl(endpoints[1] ?? '', ['put', 'greeting', 'hello']);
  assert.equal(put.code, 0, put.stderr);
  const got = await etcdctl(endpoints[2] ?? '', ['get', 'greeting', '--print-value-only']);
  assert.equal(got.stdout.trim(), 'hello');
  const members = await etcdctl(endpoints[0] ?? '', ['member', 'list', '-w', 'json']);
  const list = JSON.parse(members.stdout) as { members: { name: string; clientURLs: string[] }[] };
  assert.deepEqual(list.members.map((m) => m.name).sort(), ['kv-0', 'kv-1', 'kv-2']);
  const resolved = await runner.addresses.resolve(`http://kv-1.kv-peers.${ns}.svc:2379`);
  assert.ok(list.members.some((m) => m.clientURLs.includes(resolved)), 'advertised client URLs are the mapped pod DNS URLs');

  // The address map file (the operator's --member-address-map) maps advertised URLs, also of pods placed ahead.
  await runner.place('kv-3', 'kv-peers');
  const viaMap = addressMapResolver(mapFile);
  assert.equal(await viaMap(`http://kv-1.kv-peers.${ns}.svc:2379`), resolved);
  assert.equal(await viaMap(`http://kv-3.kv-peers.${ns}.svc:2380`), await runner.addresses.resolve(`http://kv-3.kv-peers.${ns}.svc:2380`));
  assert.equal(await viaMap(`http://${pod0.status?.podIP ?? ''}:2379`), client0);

  // New template; OnDelete: delete kv-0, it comes back as 3.5.0 with the same address and data.
  await apps.patchNamespacedStatefulSet({ name: 'kv', namespace: ns, body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'kvstore/kvstore:3.5.0' }] });
  await core.deleteNamespacedPod({ name: 'kv-0', namespace: ns });
  const back = await eventually('kv-0 back and ready', async () => {
    const p = await core.readNamespacedPod({ name: 'kv-0', namespace: ns });
    const ready = p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    return p.metadata?.uid !== pod0.metadata?.uid && ready === true ? p : undefined;
  }, { timeoutMs: BOUND, describe });
  assert.equal(back.status?.podIP, pod0.status?.podIP);
  assert.equal(back.status?.containerStatuses?.[0]?.image, 'kvstore/kvstore:3.5.0');
  assert.equal(runner.runsOf('kv-0').length, 2);
  assert.equal(await runner.runsOf('kv-0')[0]?.exited(), 0, 'the old member stopped gracefully');
  assert.equal((await getJson(`${client0}/version`)).etcdserver, '3.5.0');
  const again = await etcdctl(endpoints[0] ?? '', ['get', 'greeting', '--print-value-only', '--consistency=s']);
  assert.equal(again.stdout.trim(), 'hello', 'the member kept its data directory');

  // A member killed with SIGKILL is restarted by the kubelet (same pod, restartCount 1) and catches up.
  await runner.runsOf('kv-2')[0]?.kill9();
  const restarted = await eventually('kv-2 restarted and ready', async () => {
    const p = await core.readNamespacedPod({ name: 'kv-2', namespace: ns });
    const ready = p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    return p.status?.containerStatuses?.[0]?.restartCount === 1 && ready === true ? p : undefined;
  }, { timeoutMs: BOUND, describe });
  assert.equal(restarted.status?.phase, 'Running');
  const fromKv2 = await etcdctl(endpoints[2] ?? '', ['get', 'greeting', '--print-value-only']);
  assert.equal(fromKv2.stdout.trim(), 'hello');
});
