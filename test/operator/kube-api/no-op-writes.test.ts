// Writes that change nothing, as the real API server answers them: an update or patch (merge or
// JSON patch, main resource or /status) whose result is the stored object — compared as JSON,
// key order aside — keeps the resourceVersion, answers the stored object and wakes no watcher.
// A custom resource is served with its keys sorted (the API server's encoding of its maps). The
// audit hook names every request's verb.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditRecord } from '../../support/kube-api/audit.js';
import type { StoreEvent } from '../../support/kube-api/object-store.js';
import { startKubeApi, type KubeApi } from '../../support/kube-api/server.js';

let api: KubeApi;
const audit: AuditRecord[] = [];
const changes: StoreEvent[] = [];
const WIDGETS = '/apis/example.io/v1/namespaces/default/widgets';

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.io' },
  spec: {
    group: 'example.io',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{
      name: 'v1', served: true, storage: true, subresources: { status: {} },
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
    }],
  },
};

async function call(method: string, path: string, body?: unknown, type = 'application/json'): Promise<{ code: number; text: string; json: Record<string, unknown> & { metadata: { resourceVersion: string } } }> {
  const res = await fetch(`${api.url}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': type }, body: JSON.stringify(body) }) });
  const text = await res.text();
  return { code: res.status, text, json: JSON.parse(text) as never };
}

before(async () => {
  api = await startKubeApi({ audit: (r) => audit.push(r) });
  api.store.subscribe((e) => changes.push(e));
  assert.equal((await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CRD)).code, 201);
});
after(async () => {
  await api.close();
});

void test('a custom resource is stored and served with the keys of every object sorted', async () => {
  const created = await call('POST', WIDGETS, { kind: 'Widget', apiVersion: 'example.io/v1', metadata: { name: 'sorted' }, spec: { zeta: 1, alpha: { y: 2, b: [{ z: 1, a: 2 }] } } });
  assert.equal(created.code, 201, created.text);
  const got = await call('GET', `${WIDGETS}/sorted`);
  assert.deepEqual(Object.keys(got.json), ['apiVersion', 'kind', 'metadata', 'spec']);
  assert.match(got.text, /"spec":\{"alpha":\{"b":\[\{"a":2,"z":1\}\],"y":2\},"zeta":1\}/);
  const meta = Object.keys(got.json.metadata);
  assert.deepEqual(meta, [...meta].sort());
});

void test('updates and patches that change nothing keep the resourceVersion and wake no watcher', async () => {
  const created = await call('POST', WIDGETS, { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3, mode: 'a' } });
  const status = { phase: 'Running', conditions: [{ type: 'Available', status: 'True', reason: 'Ok', message: 'fine', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
  const withStatus = await call('PATCH', `${WIDGETS}/w/status`, { status }, 'application/merge-patch+json');
  const rv = withStatus.json.metadata.resourceVersion;
  assert.notEqual(rv, created.json.metadata.resourceVersion);
  const seen = changes.length;
  // The same status with its keys in another order (what a client writing its own struct order sends).
  const reordered = { conditions: [{ lastTransitionTime: '2026-01-01T00:00:00Z', message: 'fine', reason: 'Ok', status: 'True', type: 'Available' }], phase: 'Running' };
  const noops = [
    await call('PATCH', `${WIDGETS}/w/status`, { status: reordered }, 'application/merge-patch+json'),
    await call('PUT', `${WIDGETS}/w/status`, { ...withStatus.json, status: reordered }),
    await call('PUT', `${WIDGETS}/w`, { ...withStatus.json, spec: { mode: 'a', size: 3 } }),
    await call('PATCH', `${WIDGETS}/w`, { spec: { size: 3 } }, 'application/merge-patch+json'),
    await call('PATCH', `${WIDGETS}/w`, [{ op: 'replace', path: '/spec/mode', value: 'a' }], 'application/json-patch+json'),
  ];
  for (const r of noops) {
    assert.equal(r.code, 200, r.text);
    assert.equal(r.json.metadata.resourceVersion, rv, r.text);
  }
  assert.equal((await call('GET', `${WIDGETS}/w`)).json.metadata.resourceVersion, rv);
  assert.deepEqual(changes.slice(seen), [], 'no watch event');
  const changed = await call('PATCH', `${WIDGETS}/w/status`, { status: { phase: 'Degraded' } }, 'application/merge-patch+json');
  assert.equal(BigInt(changed.json.metadata.resourceVersion), BigInt(rv) + 1n);
  assert.deepEqual(changes.slice(seen).map((e) => e.type), ['MODIFIED']);
});

void test('a built-in object written back with its keys reordered is not a change', async () => {
  const cm = await call('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: '1', b: '2' } }, data: { x: '1', y: '2' } });
  const rv = cm.json.metadata.resourceVersion;
  const back = await call('PUT', '/api/v1/namespaces/default/configmaps/c', { ...cm.json, data: { y: '2', x: '1' }, metadata: { ...cm.json.metadata, labels: { b: '2', a: '1' } } });
  assert.equal(back.json.metadata.resourceVersion, rv);
});

void test('the audit hook names each request: verb, resource, subresource, namespace, name', async () => {
  audit.length = 0;
  await call('GET', `${WIDGETS}/w`);
  await call('GET', WIDGETS);
  await call('PATCH', `${WIDGETS}/w/status`, { status: { phase: 'Running' } }, 'application/merge-patch+json');
  await call('DELETE', `${WIDGETS}/w`);
  await call('GET', '/apis');
  assert.deepEqual(audit.map((r) => [r.verb, r.resource, r.subresource, r.namespace, r.name]), [
    ['get', 'widgets', undefined, 'default', 'w'],
    ['list', 'widgets', undefined, 'default', undefined],
    ['patch', 'widgets', 'status', 'default', 'w'],
    ['delete', 'widgets', undefined, 'default', 'w'],
  ]);
});
