// Operator metrics in a passed-in Registry, served with the probes by the health server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { clusterLabels, createOperatorMetrics } from '../../../operator/runtime/metrics.js';
import { startHealthServer } from '../../../operator/runtime/health-server.js';
import { EventRecorder } from '../../../operator/runtime/event-recorder.js';
import { MemoryKubeClient } from '../../../operator/runtime/kube/memory-client.js';
import type { EngineMetrics, EventSink } from '../../../operator/controller/ports.js';
import { ManualTimers } from './manual-timers.js';

void test('the runtime pieces fit the engine ports', () => {
  const metrics: EngineMetrics = createOperatorMetrics(new Registry());
  const events: EventSink = new EventRecorder({ kube: new MemoryKubeClient(), timers: new ManualTimers() });
  assert.ok(metrics && events);
});

void test('cluster keys become namespace and cluster labels', () => {
  assert.deepEqual(clusterLabels('prod/demo'), { namespace: 'prod', cluster: 'demo' });
  assert.deepEqual(clusterLabels('/local'), { namespace: '', cluster: 'local' });
  assert.deepEqual(clusterLabels('bare'), { namespace: '', cluster: 'bare' });
});

void test('metrics, /healthz, /readyz (ready when synced, leader or not), /metrics', async () => {
  const registry = new Registry();
  const m = createOperatorMetrics(registry);
  let synced = false;
  const server = await startHealthServer({
    host: '127.0.0.1',
    port: 0,
    registry,
    readiness: [{ name: 'informers', check: () => (synced ? undefined : 'kvstoreclusters not synced') }],
  });
  try {
    const get = async (path: string) => {
      const r = await fetch(server.url + path);
      return { status: r.status, type: r.headers.get('content-type') ?? '', body: await r.text() };
    };
    assert.deepEqual(await get('/healthz'), { status: 200, type: 'text/plain; charset=utf-8', body: 'ok\n' });
    const notReady = await get('/readyz');
    assert.equal(notReady.status, 503);
    assert.equal(notReady.body, '[-]informers failed: kvstoreclusters not synced\n');
    synced = true;
    assert.equal((await get('/readyz')).status, 200, 'ready without being the leader');
    assert.equal((await get('/nope')).status, 404);

    m.upgradeStarted('prod/demo');
    m.upgradeStarted('prod/demo');
    m.upgradeCompleted('prod/demo');
    m.upgradeBlocked('dev/other');
    m.reconcileError('prod/demo');
    m.memberUpgradeDuration('prod/demo', 42);
    m.reconcileDuration('prod/demo', 0.2);
    m.setQueueDepth(3);
    m.setLeader(true);
    const text = await get('/metrics');
    assert.equal(text.status, 200);
    assert.match(text.type, /^text\/plain; version=0\.0\.4/);
    const lines = text.body.split('\n');
    for (const expected of [
      'kvstore_operator_upgrades_started_total{namespace="prod",cluster="demo"} 2',
      'kvstore_operator_upgrades_completed_total{namespace="prod",cluster="demo"} 1',
      'kvstore_operator_upgrades_blocked_total{namespace="dev",cluster="other"} 1',
      'kvstore_operator_reconcile_errors_total{namespace="prod",cluster="demo"} 1',
      'kvstore_operator_member_upgrade_duration_seconds_count{namespace="prod",cluster="demo"} 1',
      'kvstore_operator_member_upgrade_duration_seconds_sum{namespace="prod",cluster="demo"} 42',
      'kvstore_operator_member_upgrade_duration_seconds_bucket{le="60",namespace="prod",cluster="demo"} 1',
      'kvstore_operator_member_upgrade_duration_seconds_bucket{le="30",namespace="prod",cluster="demo"} 0',
      'kvstore_operator_reconcile_duration_seconds_count{namespace="prod",cluster="demo"} 1',
      'kvstore_operator_work_queue_depth 3',
      'kvstore_operator_is_leader 1',
    ]) {
      assert.ok(lines.includes(expected), `missing: ${expected}`);
    }
    assert.ok(!/^process_|^nodejs_/m.test(text.body), 'only what was registered in this Registry');
    m.forgetCluster('prod/demo');
    m.setLeader(false);
    const after = (await get('/metrics')).body;
    assert.ok(!after.includes('cluster="demo"'));
    assert.ok(after.includes('kvstore_operator_is_leader 0'));
  } finally {
    await server.close();
  }
});
