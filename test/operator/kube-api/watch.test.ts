// Watches of the test API server through the real client-node: Watch from a list's
// resourceVersion (ADDED/MODIFIED/DELETED in order), 410 Expired on a resourceVersion older than
// the history, timeoutSeconds, and makeInformer keeping its cache right across a 410 (relist).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, makeInformer, PatchStrategy, setHeaderOptions, Watch, type KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import { startKubeApi, type KubeApi } from '../../support/kube-api/server.js';
import type { ResourceType } from '../../support/kube-api/resources.js';
import { eventually } from '../../support/eventually.js';

let api: KubeApi;
let kc: KubeConfig;
const ns = 'default';
const path = `/api/v1/namespaces/${ns}/configmaps`;

before(async () => {
  api = await startKubeApi({ bookmarkMs: 200 });
  kc = api.kubeConfig();
});
after(async () => {
  await api.close();
});

interface Seen { type: string; name: string; rv: string; data?: unknown; code?: number; reason?: string }

function recorder(): { events: Seen[]; done: Promise<unknown>; callback: (type: string, obj: Record<string, unknown>) => void; onDone: (err: unknown) => void } {
  const events: Seen[] = [];
  let resolveDone: (v: unknown) => void = () => undefined;
  const done = new Promise((r) => (resolveDone = r));
  return {
    events,
    done,
    callback: (type, obj) => {
      const meta = (obj.metadata ?? {}) as { name?: string; resourceVersion?: string };
      events.push({ type, name: meta.name ?? '', rv: meta.resourceVersion ?? '', data: obj.data, code: obj.code as number | undefined, reason: obj.reason as string | undefined });
    },
    onDone: (err) => resolveDone(err ?? 'closed'),
  };
}

void test('Watch from a list resourceVersion streams ADDED, MODIFIED, DELETED in order', async () => {
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'before' } } });
  const list = await core.listNamespacedConfigMap({ namespace: ns });
  const rec = recorder();
  const req = await new Watch(kc).watch(path, { resourceVersion: list.metadata?.resourceVersion }, rec.callback, rec.onDone);
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'w' }, data: { a: '1' } } });
  await core.patchNamespacedConfigMap({ name: 'w', namespace: ns, body: { data: { a: '2' } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  await core.deleteNamespacedConfigMap({ name: 'w', namespace: ns });
  await eventually('three events', async () => (rec.events.length >= 3 ? true : undefined));
  req.abort();
  assert.deepEqual(rec.events.map((e) => [e.type, e.name]), [['ADDED', 'w'], ['MODIFIED', 'w'], ['DELETED', 'w']]);
  assert.deepEqual(rec.events[1]?.data, { a: '2' });
  const rvs = rec.events.map((e) => BigInt(e.rv));
  assert.ok(rvs[0]! < rvs[1]! && rvs[1]! < rvs[2]!, 'resourceVersions grow');

  // Without a resourceVersion: the current objects as ADDED first.
  const rec2 = recorder();
  const req2 = await new Watch(kc).watch(path, {}, rec2.callback, rec2.onDone);
  await eventually('initial ADDED', async () => (rec2.events.length >= 1 ? true : undefined));
  req2.abort();
  assert.deepEqual(rec2.events.map((e) => [e.type, e.name]), [['ADDED', 'before']]);
});

void test('a watch with a label selector sees an object entering the selection as ADDED and leaving it as DELETED', async () => {
  const core = kc.makeApiClient(CoreV1Api);
  const rec = recorder();
  const req = await new Watch(kc).watch(path, { labelSelector: 'sel=yes' }, rec.callback, rec.onDone);
  const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'moving' } } });
  await core.patchNamespacedConfigMap({ name: 'moving', namespace: ns, body: { metadata: { labels: { sel: 'yes' } } } }, merge);
  await core.patchNamespacedConfigMap({ name: 'moving', namespace: ns, body: { data: { a: '1' } } }, merge);
  await core.patchNamespacedConfigMap({ name: 'moving', namespace: ns, body: { metadata: { labels: { sel: null } } } }, merge);
  await core.deleteNamespacedConfigMap({ name: 'moving', namespace: ns });
  await eventually('three events', async () => (rec.events.length >= 3 ? true : undefined));
  req.abort();
  assert.deepEqual(rec.events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
});

void test('a resourceVersion older than the history answers ERROR 410 Expired and ends the stream', async () => {
  const core = kc.makeApiClient(CoreV1Api);
  const first = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'old' } } });
  await core.deleteNamespacedConfigMap({ name: 'old', namespace: ns });
  api.store.compactHistory();
  const rec = recorder();
  await new Watch(kc).watch(path, { resourceVersion: first.metadata?.resourceVersion }, rec.callback, rec.onDone);
  assert.equal(await rec.done, 'closed');
  assert.equal(rec.events.length, 1);
  assert.equal(rec.events[0]?.type, 'ERROR');
  assert.equal(rec.events[0]?.code, 410);
  assert.equal(rec.events[0]?.reason, 'Expired');
});

void test('timeoutSeconds ends a watch; allowWatchBookmarks sends BOOKMARKs with the current resourceVersion', async () => {
  const rec = recorder();
  await new Watch(kc).watch(path, { timeoutSeconds: 1, allowWatchBookmarks: true, resourceVersion: String(api.store.revision()) }, rec.callback, rec.onDone);
  assert.equal(await rec.done, 'closed');
  assert.ok(rec.events.length > 0);
  assert.ok(rec.events.every((e) => e.type === 'BOOKMARK' && e.rv === String(api.store.revision())));
});

void test('makeInformer: add/update/delete, and a relist after 410 reports what the broken watch missed', async () => {
  const core = kc.makeApiClient(CoreV1Api);
  let lists = 0;
  const listFn = (): ReturnType<typeof core.listNamespacedConfigMap> => {
    lists += 1;
    return core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'informed=yes' });
  };
  const informer = makeInformer<V1ConfigMap>(kc, path, listFn, 'informed=yes');
  const log: string[] = [];
  informer.on('add', (o) => log.push(`add ${o.metadata?.name ?? ''}`));
  informer.on('update', (o) => log.push(`update ${o.metadata?.name ?? ''} ${JSON.stringify(o.data ?? {})}`));
  informer.on('delete', (o) => log.push(`delete ${o.metadata?.name ?? ''}`));
  const errors: unknown[] = [];
  informer.on('error', (e) => errors.push(e));
  await informer.start();
  try {
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'i1', labels: { informed: 'yes' } } } });
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'i2', labels: { informed: 'yes' } } } });
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'other' } } });
    await core.patchNamespacedConfigMap({ name: 'i1', namespace: ns, body: { data: { x: '1' } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    await eventually('informer saw the writes', async () => (log.length >= 3 ? true : undefined), { describe: () => log.join('; ') });
    assert.deepEqual(log, ['add i1', 'add i2', 'update i1 {"x":"1"}']);

    // Break the watch; in the same tick change things behind its back and drop the history.
    const cm = api.store.registry.lookup('', 'v1', 'configmaps') as ResourceType;
    api.endWatches();
    api.store.delete(cm, ns, 'i2');
    api.store.create(cm, ns, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'i3', labels: { informed: 'yes' } } });
    api.store.compactHistory();

    await eventually('relisted after 410', async () => (log.length >= 5 ? true : undefined), { describe: () => log.join('; ') });
    assert.deepEqual(log.slice(3).sort(), ['add i3', 'delete i2']);
    assert.equal(lists, 2, 'the 410 made the informer list again');
    assert.deepEqual(informer.list(ns).map((o) => o.metadata?.name).sort(), ['i1', 'i3']);

    // The restarted watch keeps delivering.
    await core.deleteNamespacedConfigMap({ name: 'i1', namespace: ns });
    await eventually('delete after restart', async () => (log.includes('delete i1') ? true : undefined), { describe: () => log.join('; ') });
    assert.deepEqual(errors, []);
  } finally {
    await informer.stop();
  }
});
