/**
 * One conformance suite for every `KubeClient` implementation: typed results for 404/409
 * (AlreadyExists vs Conflict), optimistic replace, merge patch, status subresource, list with a
 * label selector, delete, Events, pod logs (a missing pod). `make()` gives a client whose server already serves the
 * custom kind `Widget` (`test.kvstore.io/v1`, with a status subresource).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CoreEvent, KubeClient, KubeObject, ObjectRef } from '../../../operator/runtime/kube/types.js';

interface ConfigMap extends KubeObject {
  readonly data?: Record<string, string>;
}

interface Widget extends KubeObject {
  readonly spec?: Record<string, unknown>;
  readonly status?: Record<string, unknown>;
}

export const WIDGET_API_VERSION = 'test.kvstore.io/v1';

function cmRef(ns: string, name: string): ObjectRef {
  return { apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name };
}

export function kubeClientConformance(label: string, make: () => Promise<{ client: KubeClient; namespace: string }>): void {
  void test(`${label}: get of a missing object is NotFound (404)`, async () => {
    const { client, namespace } = await make();
    const r = await client.get(cmRef(namespace, 'missing'));
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.error.kind, 'NotFound');
    assert.equal(!r.ok && r.error.status, 404);
  });

  void test(`${label}: the log of a missing pod is NotFound (404)`, async () => {
    const { client, namespace } = await make();
    const r = await client.podLog({ namespace, name: 'missing', container: 'kvstore', tailLines: 20 });
    assert.equal(!r.ok && r.error.kind, 'NotFound');
    assert.equal(!r.ok && r.error.status, 404);
  });

  void test(`${label}: create, AlreadyExists, replace, stale replace is Conflict (409)`, async () => {
    const { client, namespace } = await make();
    const created = await client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', namespace, labels: { app: 'x' } }, data: { a: '1' } });
    assert.ok(created.ok);
    const rv1 = created.value.metadata.resourceVersion;
    assert.ok(rv1 !== undefined && rv1 !== '');
    assert.ok((created.value.metadata.uid ?? '') !== '');
    assert.equal(typeof created.value.metadata.creationTimestamp, 'string', 'timestamps stay wire strings');

    const again = await client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', namespace } });
    assert.equal(!again.ok && again.error.kind, 'AlreadyExists');
    assert.equal(!again.ok && again.error.status, 409);

    const replaced = await client.replace<ConfigMap>({ ...created.value, data: { a: '2' } });
    assert.ok(replaced.ok);
    assert.equal(replaced.value.data?.['a'], '2');
    assert.notEqual(replaced.value.metadata.resourceVersion, rv1);

    const stale = await client.replace<ConfigMap>({ ...created.value, data: { a: '3' } });
    assert.equal(!stale.ok && stale.error.kind, 'Conflict');
    assert.equal(!stale.ok && stale.error.status, 409);
    const read = await client.get<ConfigMap>(cmRef(namespace, 'c1'));
    assert.equal(read.ok && read.value.data?.['a'], '2');

    const missing = await client.replace<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'nope', namespace }, data: {} });
    assert.equal(!missing.ok && missing.error.kind, 'NotFound');
  });

  void test(`${label}: merge patch merges, null removes`, async () => {
    const { client, namespace } = await make();
    const created = await client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p1', namespace }, data: { a: '1', b: '2' } });
    assert.ok(created.ok);
    const patched = await client.mergePatch<ConfigMap>(cmRef(namespace, 'p1'), { data: { b: null, c: '3' }, metadata: { labels: { l: 'v' } } });
    assert.ok(patched.ok);
    assert.deepEqual(patched.value.data, { a: '1', c: '3' });
    assert.deepEqual(patched.value.metadata.labels, { l: 'v' });
    const missing = await client.mergePatch(cmRef(namespace, 'nope'), { data: {} });
    assert.equal(!missing.ok && missing.error.kind, 'NotFound');
  });

  void test(`${label}: list filters by namespace and labels and gives a resourceVersion`, async () => {
    const { client, namespace } = await make();
    for (const [name, app] of [['l1', 'yes'], ['l2', 'no'], ['l3', 'yes']] as const) {
      const r = await client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: { app } } });
      assert.ok(r.ok);
    }
    const listed = await client.list<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', namespace, labelSelector: 'app=yes' });
    assert.ok(listed.ok);
    assert.deepEqual(listed.value.items.map((o) => o.metadata.name).sort(), ['l1', 'l3']);
    assert.ok(listed.value.items.every((o) => o.kind === 'ConfigMap' && o.apiVersion === 'v1'));
    assert.ok(listed.value.resourceVersion !== '');
  });

  void test(`${label}: delete, then NotFound`, async () => {
    const { client, namespace } = await make();
    const r = await client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd1', namespace } });
    assert.ok(r.ok);
    assert.deepEqual(await client.delete(cmRef(namespace, 'd1')), { ok: true, value: undefined });
    const gone = await client.get(cmRef(namespace, 'd1'));
    assert.equal(!gone.ok && gone.error.kind, 'NotFound');
    const again = await client.delete(cmRef(namespace, 'd1'));
    assert.equal(!again.ok && again.error.kind, 'NotFound');
  });

  void test(`${label}: status subresource of a custom resource`, async () => {
    const { client, namespace } = await make();
    const ref: ObjectRef = { apiVersion: WIDGET_API_VERSION, kind: 'Widget', namespace, name: 'w1' };
    const created = await client.create<Widget>({ apiVersion: WIDGET_API_VERSION, kind: 'Widget', metadata: { name: 'w1', namespace }, spec: { size: 3 } });
    assert.ok(created.ok);
    const s1 = await client.patchStatus<Widget>(ref, { phase: 'Running', members: [{ name: 'a' }] });
    assert.ok(s1.ok);
    assert.deepEqual(s1.value.status, { phase: 'Running', members: [{ name: 'a' }] });
    assert.deepEqual(s1.value.spec, { size: 3 });
    const s2 = await client.patchStatus<Widget>(ref, { phase: 'Upgrading' });
    assert.ok(s2.ok);
    assert.deepEqual(s2.value.status, { phase: 'Upgrading', members: [{ name: 'a' }] }, 'a merge patch keeps other status fields');
    const missing = await client.patchStatus({ ...ref, name: 'nope' }, { phase: 'x' });
    assert.equal(!missing.ok && missing.error.kind, 'NotFound');
    const unknownKind = await client.get({ apiVersion: 'nothing.kvstore.io/v1', kind: 'Nothing', namespace, name: 'x' });
    assert.equal(!unknownKind.ok && unknownKind.error.kind, 'NotFound', 'a kind the server does not serve is NotFound');
  });

  void test(`${label}: create an Event`, async () => {
    const { client, namespace } = await make();
    const now = '2026-11-21T10:00:00Z';
    const event: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'w1.abc', namespace },
      involvedObject: { apiVersion: WIDGET_API_VERSION, kind: 'Widget', namespace, name: 'w1' },
      reason: 'UpgradeStarted',
      message: 'upgrading from 3.4.0 to 3.5.0',
      type: 'Normal',
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      source: { component: 'kvstore-operator' },
    };
    const r = await client.createEvent(event);
    assert.ok(r.ok);
    assert.equal(r.value.reason, 'UpgradeStarted');
    assert.equal(r.value.count, 1);
    assert.equal(Date.parse(r.value.lastTimestamp), Date.parse(now));
    const listed = await client.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace });
    assert.ok(listed.ok && listed.value.items.some((e) => e.metadata.name === 'w1.abc' && e.involvedObject.name === 'w1'));
  });
}
