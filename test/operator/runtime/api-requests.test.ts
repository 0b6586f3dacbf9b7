// The operator's API requests in kvstore_operator_api_requests_total: the counting client names
// each call's verb and resource and the cluster whose pass made it (through awaited chains and
// concurrent passes), '' outside a pass; a deleted cluster's series go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createOperatorMetrics } from '../../../operator/runtime/metrics.js';
import { CountingKubeClient, type ApiRequest } from '../../../operator/runtime/kube/counting-client.js';
import { MemoryKubeClient } from '../../../operator/runtime/kube/memory-client.js';
import { resourceOf } from '../../../operator/runtime/kube/resource-name.js';

const cm = (namespace: string, name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } });
const ref = (namespace: string, name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name });

void test('kinds → resources', () => {
  assert.deepEqual(
    ['StatefulSet', 'PodDisruptionBudget', 'KvstoreCluster', 'Lease', 'Ingress', 'NetworkPolicy', 'Endpoints', 'Event'].map(resourceOf),
    ['statefulsets', 'poddisruptionbudgets', 'kvstoreclusters', 'leases', 'ingresses', 'networkpolicies', 'endpoints', 'events'],
  );
});

void test('every call is reported with its verb, resource and the pass it belongs to', async () => {
  const seen: ApiRequest[] = [];
  const kube = new CountingKubeClient(new MemoryKubeClient(), (r) => seen.push(r));
  await kube.create(cm('ns', 'outside'));
  const pass = (key: string, name: string) => kube.during(key, async () => {
    await kube.get(ref('ns', name));
    await new Promise((r) => setTimeout(r, 5));
    await kube.mergePatch(ref('ns', name), { data: { a: '1' } });
    await kube.replace(cm('ns', name));
  });
  await kube.create(cm('ns', 'a'));
  await kube.create(cm('ns', 'b'));
  await Promise.all([pass('ns/a', 'a'), pass('ns/b', 'b')]);
  await kube.during('ns/a', async () => {
    await kube.list({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns' });
    await kube.patchStatus({ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', namespace: 'ns', name: 'a' }, {});
    await kube.delete(ref('ns', 'a'));
    kube.count('watch', 'pods');
  });
  const of = (cluster: string) => seen.filter((r) => r.cluster === cluster).map((r) => `${r.verb} ${r.resource}`);
  assert.deepEqual(of(''), ['create configmaps', 'create configmaps', 'create configmaps']);
  assert.deepEqual(of('ns/b'), ['get configmaps', 'patch configmaps', 'update configmaps']);
  assert.deepEqual(of('ns/a'), ['get configmaps', 'patch configmaps', 'update configmaps', 'list configmaps', 'patch kvstoreclusters/status', 'delete configmaps', 'watch pods']);
});

void test('kvstore_operator_api_requests_total by namespace, cluster, verb and resource; forgotten with the cluster', async () => {
  const registry = new Registry();
  const m = createOperatorMetrics(registry);
  m.apiRequest('prod/demo', 'get', 'statefulsets');
  m.apiRequest('prod/demo', 'get', 'statefulsets');
  m.apiRequest('prod/demo', 'patch', 'kvstoreclusters/status');
  m.apiRequest('', 'update', 'leases');
  const text = await registry.metrics();
  assert.match(text, /^kvstore_operator_api_requests_total\{namespace="prod",cluster="demo",verb="get",resource="statefulsets"\} 2$/m);
  assert.match(text, /^kvstore_operator_api_requests_total\{namespace="prod",cluster="demo",verb="patch",resource="kvstoreclusters\/status"\} 1$/m);
  assert.match(text, /^kvstore_operator_api_requests_total\{namespace="",cluster="",verb="update",resource="leases"\} 1$/m);
  m.forgetCluster('prod/demo');
  const after = await registry.metrics();
  assert.doesNotMatch(after, /cluster="demo"/);
  assert.match(after, /resource="leases"/);
});
