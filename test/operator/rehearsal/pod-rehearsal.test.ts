// PodRehearsal over the in-memory Kubernetes client, and the /rehearsal route: start creates the
// scratch pod (after removing earlier ones) with the snapshot's figures and trailer; observe follows
// the pod (Pending → Starting, Running with a pod IP → Running at http://<ip>:2379, Failed → Failed
// with the containers' log tail); cleanup deletes it; a snapshot whose figures cannot be read fails
// without a pod. The route serves the file only to the token of a scratch pod owned by the cluster,
// and only a snapshot file of that cluster in the namespace's directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineLogger } from '../../../operator/controller/ports.js';
import { PodRehearsal } from '../../../operator/runtime/rehearsal/pod-rehearsal.js';
import { rehearsalURLOf, serveRehearsal } from '../../../operator/runtime/kube-platform/rehearsal-route.js';
import { MemoryKubeClient } from '../../../operator/runtime/kube/memory-client.js';
import type { KubeObject } from '../../../operator/runtime/kube/types.js';
import { writeBolt } from '../../../server/snapshot/bbolt/index.js';
import { encodeKeyValue } from '../../../server/mvcc/kv-codec.js';
import { encodeRevisionKey } from '../../../server/mvcc/revision.js';
import { makeTempDir } from '../../support/processes.js';
import { makeCluster } from '../builders/support.js';

const dir = makeTempDir('pod-rehearsal');
const quiet: EngineLogger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const cluster = makeCluster({ version: '3.4.27' }, { namespace: 'prod' });
const FILE = 'demo-3.4.27-to-3.5.2-20261127T001529Z.db';

/** A snapshot file of 3 keys at revisions 2…4, with its SHA-256 trailer, in `<dir>/prod/`. */
async function snapshot(): Promise<string> {
  mkdirSync(join(dir, 'prod'), { recursive: true });
  const path = join(dir, 'prod', FILE);
  async function* entries(): AsyncGenerator<readonly [Buffer, Buffer]> {
    for (let i = 0; i < 3; i++) {
      const key = Buffer.from(`k${i}`);
      yield [encodeRevisionKey(BigInt(i + 2), 0, false), encodeKeyValue({ key, createRevision: BigInt(i + 2), modRevision: BigInt(i + 2), version: 1n, value: Buffer.from('v'), lease: 0n })];
    }
  }
  await writeBolt(path, [{ name: 'key', entries: entries() }], { sync: false });
  appendFileSync(path, createHash('sha256').update(readFileSync(path)).digest());
  return path;
}

type PodDoc = KubeObject & { spec: { initContainers: { env: { name: string; value: string }[] }[] }; status?: unknown };

void test('PodRehearsal: creates the scratch pod, follows it, reads its log tail, deletes it', async () => {
  const file = await snapshot();
  const kube = new MemoryKubeClient();
  const r = new PodRehearsal({ kube, logger: quiet, snapshotURL: (ns, pod) => rehearsalURLOf('http://op:8080/', ns, pod) });
  // A scratch pod left by an earlier operator is deleted first.
  await kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'demo-rehearsal-old', namespace: 'prod', labels: { 'app.kubernetes.io/name': 'kvstore-rehearsal', 'app.kubernetes.io/instance': 'demo', 'app.kubernetes.io/managed-by': 'kvstore-operator', 'app.kubernetes.io/component': 'rehearsal' } } });
  assert.ok((await r.start(cluster, 'demo-r1', file, '3.5.2')).ok);
  const pods = await kube.list<PodDoc>({ apiVersion: 'v1', kind: 'Pod', namespace: 'prod' });
  assert.ok(pods.ok);
  assert.deepEqual(pods.value.items.map((p) => p.metadata.name), ['demo-rehearsal-r1']);
  const pod = pods.value.items[0] as PodDoc;
  const env = Object.fromEntries(pod.spec.initContainers[0]?.env.map((e) => [e.name, e.value]) ?? []);
  assert.equal(env.KVSTORE_RESTORE_URL, 'http://op:8080/rehearsal/prod/demo-rehearsal-r1');
  assert.equal(env.KVSTORE_RESTORE_SHA256, readFileSync(file).subarray(-32).toString('hex'));
  assert.match(env.KVSTORE_RESTORE_TOKEN ?? '', /^[0-9a-f]{64}$/);

  const observe = async () => {
    const v = await r.observe(cluster);
    assert.ok(v.ok && v.value !== undefined, JSON.stringify(v));
    return v.value;
  };
  const setStatus = async (status: unknown): Promise<void> => {
    const got = await kube.get<PodDoc>({ apiVersion: 'v1', kind: 'Pod', namespace: 'prod', name: 'demo-rehearsal-r1' });
    assert.ok(got.ok);
    assert.ok((await kube.replace({ ...got.value, status })).ok);
  };
  let v = await observe();
  assert.equal(v.phase, 'Starting');
  assert.deepEqual(v.expected, { revision: 4, keys: 3 });
  await setStatus({ phase: 'Pending', initContainerStatuses: [{ name: 'restore', state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "kvstore/kvstore:3.5.2"' } } }] });
  v = await observe();
  assert.equal(v.phase, 'Starting', 'an image pull may still succeed');
  assert.equal(v.logTail, 'container restore waiting: ImagePullBackOff (Back-off pulling image "kvstore/kvstore:3.5.2")\n');
  await setStatus({ phase: 'Pending', initContainerStatuses: [{ name: 'restore', state: { waiting: { reason: 'InvalidImageName' } } }] });
  v = await observe();
  assert.equal(v.phase, 'Failed');
  assert.equal(v.error, 'container restore cannot start: InvalidImageName (pod demo-rehearsal-r1)');
  await setStatus({ phase: 'Running', podIP: '10.1.2.3', containerStatuses: [{ name: 'kvstore', state: { running: {} } }] });
  kube.setPodLog('prod', 'demo-rehearsal-r1', 'restore', 'restore: restored\n');
  kube.setPodLog('prod', 'demo-rehearsal-r1', 'kvstore', Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n'));
  v = await observe();
  assert.equal(v.phase, 'Running');
  assert.equal(v.clientURL, 'http://10.1.2.3:2379');
  assert.equal(v.logTail.split('\n').length, 21, 'the last 20 lines');
  assert.match(v.logTail, /line 29\n$/);
  await setStatus({ phase: 'Failed', podIP: '10.1.2.3', containerStatuses: [{ name: 'kvstore', state: { terminated: { exitCode: 2, reason: 'Error' } } }] });
  v = await observe();
  assert.equal(v.phase, 'Failed');
  assert.equal(v.error, 'container kvstore exited 2 (Error) (pod demo-rehearsal-r1)');
  assert.ok((await r.cleanup(cluster)).ok);
  const gone = await r.observe(cluster);
  assert.ok(gone.ok && gone.value === undefined);
  const left = await kube.list<KubeObject>({ apiVersion: 'v1', kind: 'Pod', namespace: 'prod' });
  assert.ok(left.ok && left.value.items.length === 0);

  // A file that is no snapshot: Failed at once, no pod.
  const junk = join(dir, 'junk.db');
  writeFileSync(junk, Buffer.alloc(100, 7));
  assert.ok((await r.start(cluster, 'demo-r2', junk, '3.5.2')).ok);
  v = await observe();
  assert.equal(v.phase, 'Failed');
  assert.match(v.error ?? '', /not a readable database/);
  const none = await kube.list<KubeObject>({ apiVersion: 'v1', kind: 'Pod', namespace: 'prod' });
  assert.ok(none.ok && none.value.items.length === 0);
});

void test('/rehearsal route: the token of a scratch pod owned by the cluster, a snapshot file of that cluster only', async () => {
  const file = await snapshot();
  const kube = new MemoryKubeClient();
  const created = await kube.create({ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo', namespace: 'prod' } } as KubeObject);
  assert.ok(created.ok);
  const owner = makeCluster({ version: '3.4.27' }, { namespace: 'prod', uid: created.value.metadata.uid ?? '' });
  const r = new PodRehearsal({ kube, logger: quiet, snapshotURL: (ns, pod) => rehearsalURLOf('http://op:8080', ns, pod) });
  assert.ok((await r.start(owner, 'demo-r1', file, '3.5.2')).ok);
  const got = await kube.get<PodDoc>({ apiVersion: 'v1', kind: 'Pod', namespace: 'prod', name: 'demo-rehearsal-r1' });
  assert.ok(got.ok);
  const token = got.value.spec.initContainers[0]?.env.find((e) => e.name === 'KVSTORE_RESTORE_TOKEN')?.value ?? '';
  const status = async (auth: string | undefined, ns = 'prod', pod = 'demo-rehearsal-r1'): Promise<number> => (await serveRehearsal(kube, dir, ns, pod, auth)).status;
  assert.equal(await status(undefined), 401);
  assert.equal(await status('Bearer nope'), 403);
  assert.equal(await status(`Bearer ${token}`, 'other'), 404);
  const ok = await serveRehearsal(kube, dir, 'prod', 'demo-rehearsal-r1', `Bearer ${token}`);
  assert.equal(ok.status, 200);
  assert.equal(ok.size, readFileSync(file).length);
  // Not a scratch pod (a member pod with the same token): 404.
  await kube.create({ ...got.value, metadata: { name: 'demo-0', namespace: 'prod', labels: { 'app.kubernetes.io/name': 'kvstore' } } } as KubeObject);
  assert.equal(await status(`Bearer ${token}`, 'prod', 'demo-0'), 404);
  // A pod naming a file that is not a snapshot of this cluster, or outside the directory: 403.
  copyFileSync(file, join(dir, 'prod', 'other-3.4.27-to-3.5.2-20261127T001529Z.db'));
  for (const name of ['other-3.4.27-to-3.5.2-20261127T001529Z.db', `../prod/${FILE}`, '/etc/passwd']) {
    const meta = got.value.metadata;
    await kube.replace({ ...got.value, metadata: { ...meta, resourceVersion: undefined, annotations: { ...meta.annotations, 'kvstore.io/rehearsal-snapshot': name } } } as KubeObject);
    assert.equal(await status(`Bearer ${token}`), 403, name);
  }
  // The cluster created again (another uid): 403.
  await kube.delete({ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', namespace: 'prod', name: 'demo' });
  await kube.create({ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo', namespace: 'prod' } } as KubeObject);
  assert.equal(await status(`Bearer ${token}`), 403);
});
