// The object store without HTTP: resourceVersions, no-op writes, generation, status rules,
// finalizers, graceful deletion for a kubelet, orphaning, watch replay, history bound and 410.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectStore, type StoreEvent } from '../../support/kube-api/object-store.js';
import { ResourceRegistry, type ResourceType } from '../../support/kube-api/resources.js';
import type { KubeObject } from '../../support/kube-api/types.js';

function setup(opts: { historyLimit?: number; graceful?: boolean } = {}): { store: ObjectStore; cm: ResourceType; pod: ResourceType; sts: ResourceType } {
  const registry = new ResourceRegistry();
  let n = 0;
  const store = new ObjectStore(registry, {
    historyLimit: opts.historyLimit ?? 100,
    now: () => new Date(Date.UTC(2026, 0, 1)),
    uid: () => `uid-${++n}`,
    gracefulDelete: (t) => opts.graceful === true && t.plural === 'pods',
  });
  const get = (g: string, p: string): ResourceType => registry.lookup(g, 'v1', p) as ResourceType;
  return { store, cm: get('', 'configmaps'), pod: get('', 'pods'), sts: get('apps', 'statefulsets') };
}

const cmBody = (name: string, data: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

function must<T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> {
  assert.ok(r.ok, JSON.stringify(r));
  return r as Extract<T, { ok: true }>;
}

void test('every write takes the next resourceVersion; a write changing nothing takes none', () => {
  const { store, cm } = setup();
  const a = must(store.create(cm, 'ns', cmBody('a'))).object;
  assert.deepEqual([a.metadata.resourceVersion, a.metadata.uid, a.metadata.creationTimestamp, a.metadata.generation], ['1', 'uid-1', '2026-01-01T00:00:00Z', 1]);
  const same = must(store.update(cm, 'ns', 'a', a)).object;
  assert.equal(same.metadata.resourceVersion, '1');
  const b = must(store.update(cm, 'ns', 'a', { ...a, data: { k: 'v' } })).object;
  assert.equal(b.metadata.resourceVersion, '2');
  assert.equal(b.metadata.generation, 2);
  const stale = store.update(cm, 'ns', 'a', { ...a, data: { k: 'w' } });
  assert.ok(!stale.ok && stale.error.code === 409);
  assert.equal(store.revision(), 2n);
});

void test('status subresource: main writes keep status, status writes keep the rest; generation ignores status', () => {
  const { store, sts } = setup();
  const body: KubeObject = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } } } }, status: { replicas: 9 } };
  const created = must(store.create(sts, 'ns', body)).object;
  assert.equal(created.status, undefined);
  const withStatus = must(store.update(sts, 'ns', 's', { ...created, spec: { changed: true }, status: { replicas: 1 } }, 'status')).object;
  assert.deepEqual([withStatus.status, withStatus.spec, withStatus.metadata.generation], [{ replicas: 1 }, created.spec, 1]);
  const main = must(store.update(sts, 'ns', 's', { ...withStatus, metadata: { ...withStatus.metadata, labels: { x: 'y' } }, status: { replicas: 5 } })).object;
  assert.deepEqual([main.status, main.metadata.labels, main.metadata.generation], [{ replicas: 1 }, { x: 'y' }, 1]);
});

void test('finalizers and graceful deletion', () => {
  const { store, cm, pod } = setup({ graceful: true });
  must(store.create(cm, 'ns', { ...cmBody('f'), metadata: { name: 'f', finalizers: ['x'] } }));
  const marked = must(store.delete(cm, 'ns', 'f')).object;
  assert.equal(marked.metadata.deletionTimestamp, '2026-01-01T00:00:00Z');
  assert.equal(marked.metadata.deletionGracePeriodSeconds, 0);
  const gone = must(store.update(cm, 'ns', 'f', { ...marked, metadata: { ...marked.metadata, finalizers: [] } })).object;
  assert.equal(store.get(cm, 'ns', 'f'), undefined);
  assert.equal(gone.metadata.name, 'f');

  const p = must(store.create(pod, 'ns', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { terminationGracePeriodSeconds: 3, containers: [] } })).object;
  assert.deepEqual(p.status, { phase: 'Pending' });
  const deleting = must(store.delete(pod, 'ns', 'p')).object;
  assert.equal(deleting.metadata.deletionGracePeriodSeconds, 3, 'waits for the kubelet');
  assert.ok(store.get(pod, 'ns', 'p') !== undefined);
  const wrongUid = store.delete(pod, 'ns', 'p', { gracePeriodSeconds: 0, preconditions: { uid: 'other' } });
  assert.ok(!wrongUid.ok && wrongUid.error.code === 409);
  must(store.delete(pod, 'ns', 'p', { gracePeriodSeconds: 0, preconditions: { uid: p.metadata.uid ?? '' } }));
  assert.equal(store.get(pod, 'ns', 'p'), undefined);
});

void test('orphan propagation drops the owner reference from dependents', () => {
  const { store, cm } = setup();
  const owner = must(store.create(cm, 'ns', cmBody('owner'))).object;
  must(store.create(cm, 'ns', { ...cmBody('dep'), metadata: { name: 'dep', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid ?? '' }] } }));
  must(store.delete(cm, 'ns', 'owner', { propagationPolicy: 'Orphan' }));
  assert.deepEqual(store.get(cm, 'ns', 'dep')?.metadata.ownerReferences, []);
});

void test('watch: replay after a resourceVersion, live events, 410 once history is dropped or bounded', () => {
  const { store, cm } = setup({ historyLimit: 3 });
  const all = { type: cm, namespace: 'ns', match: () => true };
  must(store.create(cm, 'ns', cmBody('a')));
  must(store.create(cm, 'ns', cmBody('b')));
  const seen: StoreEvent[] = [];
  const w = store.watch(all, 1n, (e) => seen.push(e));
  assert.ok(w.ok);
  must(store.delete(cm, 'ns', 'a'));
  assert.deepEqual(seen.map((e) => `${e.type} ${e.object.metadata.name ?? ''} ${e.rv}`), ['ADDED b 2', 'DELETED a 3']);
  if (w.ok) w.cancel();

  must(store.create(cm, 'ns', cmBody('c')));
  must(store.create(cm, 'ns', cmBody('d')));
  // Limit 3: events 3, 4, 5 kept; from 1 is too old, from 2 is fine.
  const old = store.watch(all, 1n, () => undefined);
  assert.ok(!old.ok && old.error.code === 410);
  assert.equal(!old.ok && old.error.body.message, 'too old resource version: 1 (3)');
  const fine = store.watch(all, 2n, () => undefined);
  assert.ok(fine.ok);
  if (fine.ok) fine.cancel();
  store.compactHistory();
  assert.ok(!store.watch(all, 4n, () => undefined).ok);
  const fromNow = store.watch(all, 5n, () => undefined);
  assert.ok(fromNow.ok);
  if (fromNow.ok) fromNow.cancel();
  const initial: string[] = [];
  const w0 = store.watch(all, undefined, (e) => initial.push(`${e.type} ${e.object.metadata.name ?? ''}`));
  assert.deepEqual(initial, ['ADDED b', 'ADDED c', 'ADDED d']);
  if (w0.ok) w0.cancel();
});
