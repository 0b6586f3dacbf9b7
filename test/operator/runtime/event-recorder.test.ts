// The event recorder: core/v1 Events with source and reporting component kvstore-operator and the
// reporting instance, repeats folded into count,
// a vanished Event recreated, errors reported — on the in-memory client and on the test API server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventRecorder, kubeTime } from '../../../operator/runtime/event-recorder.js';
import { ClientNodeKubeClient } from '../../../operator/runtime/kube/client-node-client.js';
import { MemoryKubeClient } from '../../../operator/runtime/kube/memory-client.js';
import type { CoreEvent, KubeClient } from '../../../operator/runtime/kube/types.js';
import { ManualTimers } from './manual-timers.js';
import { startFixture, type KubeApiFixture } from './kube-api-fixture.js';

let fx: KubeApiFixture;
before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.api.close();
});

async function events(kube: KubeClient, namespace: string): Promise<CoreEvent[]> {
  const r = await kube.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace });
  assert.ok(r.ok);
  return [...r.value.items].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

function cluster(namespace: string) {
  return { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo', namespace, uid: 'u-1' } };
}

for (const world of ['memory', 'api'] as const) {
  const setup = (): { kube: KubeClient; namespace: string } =>
    world === 'memory' ? { kube: new MemoryKubeClient(), namespace: 'ns' } : { kube: new ClientNodeKubeClient(fx.kubeConfig), namespace: fx.namespace() };

  void test(`${world}: an event names its object and source; a repeat increments count`, async () => {
    const { kube, namespace } = setup();
    const timers = new ManualTimers(Date.UTC(2026, 10, 21, 10, 0, 0));
    const rec = new EventRecorder({ kube, timers, instance: 'kvstore-operator-7d9f-x2' });
    const subject = cluster(namespace);
    await rec.emit(subject, { type: 'Normal', reason: 'UpgradeStarted', message: 'upgrading 3.4.0 → 3.5.0' });
    const [first] = await events(kube, namespace);
    assert.ok(first);
    assert.deepEqual(
      { involved: first.involvedObject, reason: first.reason, type: first.type, count: first.count, source: first.source.component, by: [first.reportingComponent, first.reportingInstance] },
      {
        involved: { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', namespace, name: 'demo', uid: 'u-1' },
        reason: 'UpgradeStarted',
        type: 'Normal',
        count: 1,
        source: 'kvstore-operator',
        by: ['kvstore-operator', 'kvstore-operator-7d9f-x2'],
      },
    );
    assert.equal(Date.parse(first.firstTimestamp), Date.UTC(2026, 10, 21, 10, 0, 0));
    await timers.advance(5000);
    await rec.emit(subject, { type: 'Normal', reason: 'UpgradeStarted', message: 'upgrading 3.4.0 → 3.5.0' });
    await rec.emit(subject, { type: 'Normal', reason: 'UpgradeStarted', message: 'upgrading 3.4.0 → 3.5.0' });
    const after = await events(kube, namespace);
    assert.equal(after.length, 1);
    assert.equal(after[0]?.count, 3);
    assert.equal(after[0]?.lastTimestamp !== undefined && Date.parse(after[0].lastTimestamp), Date.UTC(2026, 10, 21, 10, 0, 5));
    assert.equal(after[0]?.firstTimestamp !== undefined && Date.parse(after[0].firstTimestamp), Date.UTC(2026, 10, 21, 10, 0, 0));
  });

  void test(`${world}: different messages are different events; concurrent repeats never duplicate`, async () => {
    const { kube, namespace } = setup();
    const rec = new EventRecorder({ kube, timers: new ManualTimers() });
    const subject = cluster(namespace);
    await Promise.all([
      rec.emit(subject, { type: 'Normal', reason: 'MemberUpgraded', message: 'demo-1 runs 3.5.0' }),
      rec.emit(subject, { type: 'Normal', reason: 'MemberUpgraded', message: 'demo-1 runs 3.5.0' }),
      rec.emit(subject, { type: 'Normal', reason: 'MemberUpgraded', message: 'demo-2 runs 3.5.0' }),
      rec.emit(subject, { type: 'Warning', reason: 'UpgradeBlocked', message: 'no leader' }),
    ]);
    const all = await events(kube, namespace);
    assert.deepEqual(all.map((e) => [e.reason, e.message, e.count]).sort(), [
      ['MemberUpgraded', 'demo-1 runs 3.5.0', 2],
      ['MemberUpgraded', 'demo-2 runs 3.5.0', 1],
      ['UpgradeBlocked', 'no leader', 1],
    ]);
  });

  void test(`${world}: a folded event that was deleted meanwhile is created again`, async () => {
    const { kube, namespace } = setup();
    const rec = new EventRecorder({ kube, timers: new ManualTimers() });
    const subject = cluster(namespace);
    const notice = { type: 'Warning', reason: 'UpgradeBlocked', message: 'downgrade refused' } as const;
    await rec.emit(subject, notice);
    const [first] = await events(kube, namespace);
    assert.ok(first);
    assert.ok((await kube.delete({ apiVersion: 'v1', kind: 'Event', namespace, name: first.metadata.name })).ok);
    const r = await rec.record(subject, notice);
    assert.ok(r.ok);
    assert.equal(r.value.count, 1);
    assert.equal((await events(kube, namespace)).length, 1);
  });
}

void test('failures are reported, never thrown', async () => {
  const kube = new MemoryKubeClient();
  kube.failWith(() => ({ kind: 'Unreachable', status: 0, message: 'connect ECONNREFUSED' }));
  const errors: string[] = [];
  const rec = new EventRecorder({ kube, timers: new ManualTimers(), onError: (e, n) => errors.push(`${n.reason}: ${e.kind}`) });
  await rec.emit(cluster('ns'), { type: 'Normal', reason: 'X', message: 'y' });
  assert.deepEqual(errors, ['X: Unreachable']);
  assert.equal(kubeTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), '2026-01-02T03:04:05Z');
});
