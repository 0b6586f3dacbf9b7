// The pure parts of the Kubernetes side: pod → slot, the status merge patch, the cluster keys of
// watched objects, the run command's flag parsers, the address-map resolver and the snapshot
// file filter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDefaults } from '../../../operator/api/defaults.js';
import { parseBindAddress, parseDuration } from '../../../operator/cli/cli-values.js';
import { keyOfCluster, keyOfMemberPod, keyOfOwned, splitKey } from '../../../operator/runtime/kube-controller/cluster-keys.js';
import { addressMapResolver } from '../../../operator/runtime/kube-platform/address-map.js';
import { podCount, slotsOf, versionOfImage, type PodView } from '../../../operator/runtime/kube-platform/pod-slot.js';
import { isSnapshotOf } from '../../../operator/runtime/kube-platform/snapshot-volume.js';
import { mergePatchBetween } from '../../../operator/runtime/kube-platform/status-patch.js';
import { applyMergePatch } from '../../../operator/runtime/kube/merge-patch.js';

const cluster = withDefaults({ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo', namespace: 'ns' }, spec: { version: '3.4.0' } });

function pod(name: string, image: string, phase: string, deleting = false): PodView {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns', ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { containers: [{ name: 'kvstore', image }] },
    status: { phase },
  };
}

void test('image tags → versions', () => {
  assert.equal(versionOfImage('kvstore/kvstore:3.5.0'), '3.5.0');
  assert.equal(versionOfImage('registry:5000/kvstore/kvstore:v3.4.2'), '3.4.2');
  assert.equal(versionOfImage('registry:5000/kvstore/kvstore'), '');
  assert.equal(versionOfImage('kvstore/kvstore:latest'), '');
  assert.equal(versionOfImage(undefined), '');
});

void test('slots from pods: exists, running (not while terminating), version, stable DNS URLs', () => {
  const pods = [pod('demo-0', 'kvstore/kvstore:3.4.0', 'Running'), pod('demo-2', 'kvstore/kvstore:3.5.0', 'Running', true), pod('other-7', 'x:3.4.0', 'Running')];
  assert.equal(podCount(cluster, pods), 3);
  const slots = slotsOf(cluster, pods, 3);
  assert.deepEqual(slots.map((s) => [s.name, s.exists, s.running, s.runVersion]), [
    ['demo-0', true, true, '3.4.0'],
    ['demo-1', false, false, ''],
    ['demo-2', true, false, '3.5.0'],
  ]);
  assert.equal(slots[1]?.clientURL, 'http://demo-1.demo-peer.ns.svc:2379');
  assert.equal(slots[1]?.peerURL, 'http://demo-1.demo-peer.ns.svc:2380');
});

void test('status merge patch: changed keys set, dropped keys null, applying it gives the target', () => {
  const from = { phase: 'Upgrading', upgrade: { state: 'UpgradingMembers', currentMember: 'demo-1', membersDone: ['demo-0'] }, conditions: [{ type: 'Available', status: 'True' }] };
  const to = { phase: 'Upgrading', upgrade: { state: 'WaitingV2', membersDone: ['demo-0', 'demo-1'], waitUntil: 'x' }, conditions: [{ type: 'Available', status: 'True' }] };
  const patch = mergePatchBetween(from, to);
  assert.deepEqual(patch, { upgrade: { state: 'WaitingV2', currentMember: null, membersDone: ['demo-0', 'demo-1'], waitUntil: 'x' } });
  assert.deepEqual(applyMergePatch(from, patch), to);
  assert.equal(mergePatchBetween(to, structuredClone(to)), undefined);
  // As the API server hands it back (keys sorted, also inside the arrays): no change, no patch.
  const served = { conditions: [{ status: 'True', type: 'Available' }], phase: 'Upgrading', upgrade: { membersDone: ['demo-0', 'demo-1'], state: 'WaitingV2', waitUntil: 'x' } };
  assert.equal(mergePatchBetween(served, to), undefined);
  assert.deepEqual(mergePatchBetween(served, { ...to, conditions: [{ type: 'Available', status: 'False' }] }), { conditions: [{ type: 'Available', status: 'False' }] });
});

void test('watched objects → cluster keys', () => {
  const meta = (m: Record<string, unknown>) => ({ apiVersion: 'x', kind: 'y', metadata: { name: 'n', namespace: 'ns', ...m } });
  assert.equal(keyOfCluster(meta({ name: 'demo' })), 'ns/demo');
  assert.equal(keyOfOwned(meta({ ownerReferences: [{ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', name: 'demo', uid: 'u', controller: true }] })), 'ns/demo');
  assert.equal(keyOfOwned(meta({ ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'demo', uid: 'u', controller: true }] })), undefined);
  assert.equal(keyOfMemberPod(meta({ labels: { 'app.kubernetes.io/instance': 'demo', 'app.kubernetes.io/managed-by': 'kvstore-operator' } })), 'ns/demo');
  assert.equal(keyOfMemberPod(meta({ labels: { 'app.kubernetes.io/instance': 'demo' } })), undefined);
  assert.deepEqual(splitKey('ns/demo'), { namespace: 'ns', name: 'demo' });
});

void test('run flags: bind addresses and durations', () => {
  assert.deepEqual(parseBindAddress(':8080'), { host: '0.0.0.0', port: 8080 });
  assert.deepEqual(parseBindAddress('127.0.0.1:0'), { host: '127.0.0.1', port: 0 });
  assert.deepEqual(parseBindAddress('[::1]:9090'), { host: '::1', port: 9090 });
  assert.equal(parseBindAddress('0'), undefined);
  assert.throws(() => parseBindAddress('host:http'));
  assert.equal(parseDuration('15s'), 15_000);
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('2m'), 120_000);
  assert.equal(parseDuration('3'), 3000);
  assert.throws(() => parseDuration('soon'));
});

void test('address map: mapped hosts dialled instead, others as advertised, re-read on change', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'addr-map-'));
  try {
    const file = join(dir, 'map.json');
    const resolve = addressMapResolver(file);
    assert.equal(await resolve('http://demo-0.demo-peer.ns.svc:2379'), 'http://demo-0.demo-peer.ns.svc:2379', 'no file: as advertised');
    writeFileSync(file, JSON.stringify({ 'demo-0.demo-peer.ns.svc:2379': '127.0.0.5:4000' }));
    assert.equal(await resolve('http://demo-0.demo-peer.ns.svc:2379'), 'http://127.0.0.5:4000');
    assert.equal(await resolve('http://demo-1.demo-peer.ns.svc:2379'), 'http://demo-1.demo-peer.ns.svc:2379');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('snapshot files of a cluster, not of a cluster whose name extends it', () => {
  assert.ok(isSnapshotOf('demo', 'demo-3.4.0-to-3.5.0-20260101T000000Z.db'));
  assert.ok(!isSnapshotOf('demo', 'demo-x-3.4.0-to-3.5.0-20260101T000000Z.db'));
  assert.ok(!isSnapshotOf('demo', 'demo-3.4.0-to-3.5.0-20260101T000000Z.db.part'));
});
