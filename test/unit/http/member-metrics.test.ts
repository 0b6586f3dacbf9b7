/** createMemberMetrics: names from the table, per-version renames, fan-out and one-hot labels. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createMemberMetrics, majorMinor } from '../../../server/metrics/member-metrics.js';
import { MEMBER_METRIC_NAMES, MEMBER_METRIC_NAMES_35 } from '../../../server/metrics/metric-names.js';

const DEBUGGING_MVCC = ['put_total', 'delete_total', 'txn_total', 'range_total', 'db_total_size_in_bytes'].map((n) => `kvstore_debugging_mvcc_${n}`);

async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return undefined;
  const data = await metric.get();
  const v = data.values.find((x) => Object.entries(labels).every(([k, l]) => x.labels[k] === l));
  return v?.value;
}

void test('every name of the table is registered, with the kvstore_ prefix', async () => {
  const registry = new Registry();
  createMemberMetrics(registry, { serverVersion: '3.4.45' });
  for (const name of Object.values(MEMBER_METRIC_NAMES)) {
    assert.ok(name.startsWith('kvstore_'), name);
    assert.ok(registry.getSingleMetric(name), `${name} registered`);
  }
  const text = await registry.metrics();
  assert.match(text, /^# TYPE kvstore_server_proposals_committed_total gauge$/m);
  assert.match(text, /^# TYPE kvstore_server_leader_changes_seen_total counter$/m);
  assert.match(text, /^kvstore_disk_wal_fsync_duration_seconds_bucket\{le="8.192"\} 0$/m);
  assert.doesNotMatch(text, /kvstore_disk_wal_fsync_duration_seconds_bucket\{le="16.384"\}/);
});

void test('mvcc counters update both the mvcc_ and debugging_mvcc_ names (3.4 table)', async () => {
  const registry = new Registry();
  const m = createMemberMetrics(registry, { serverVersion: '3.4.45' });
  m.put.inc();
  m.put.inc(2);
  m.dbTotalSize.set(4096);
  assert.equal(await metricValue(registry, 'kvstore_mvcc_put_total'), 3);
  assert.equal(await metricValue(registry, 'kvstore_debugging_mvcc_put_total'), 3);
  assert.equal(await metricValue(registry, 'kvstore_debugging_mvcc_db_total_size_in_bytes'), 4096);
});

void test('the 3.5 table drops the deprecated debugging_mvcc names; handles still work', async () => {
  const registry = new Registry();
  const m = createMemberMetrics(registry, { serverVersion: '3.5.0' }, MEMBER_METRIC_NAMES_35);
  m.put.inc();
  m.txn.inc();
  m.range.inc();
  assert.equal(await metricValue(registry, 'kvstore_mvcc_put_total'), 1);
  for (const name of DEBUGGING_MVCC) assert.equal(registry.getSingleMetric(name), undefined, name);
  assert.equal(await metricValue(registry, 'kvstore_mvcc_range_total'), 1);
  assert.doesNotMatch(await registry.metrics(), /unexposed_/);
});

void test('exposeNames switches the visible names at run time; hidden metrics keep counting', async () => {
  const registry = new Registry();
  const m = createMemberMetrics(registry, { serverVersion: '3.5.0' }, MEMBER_METRIC_NAMES);
  m.put.inc();
  assert.equal(await metricValue(registry, 'kvstore_debugging_mvcc_put_total'), 1);
  m.exposeNames(MEMBER_METRIC_NAMES_35);
  m.put.inc();
  for (const name of DEBUGGING_MVCC) assert.doesNotMatch(await registry.metrics(), new RegExp(`^# TYPE ${name} `, 'm'), name);
  assert.equal(await metricValue(registry, 'kvstore_mvcc_put_total'), 2);
  m.exposeNames(MEMBER_METRIC_NAMES);
  assert.equal(await metricValue(registry, 'kvstore_debugging_mvcc_put_total'), 2);
  m.exposeNames(MEMBER_METRIC_NAMES);
  assert.match(await registry.metrics(), /^kvstore_debugging_mvcc_put_total 2$/m);
});

void test('server_version is 1; cluster_version and server_id keep the current label at 1, previous at 0', async () => {
  const registry = new Registry();
  const m = createMemberMetrics(registry, { serverVersion: '3.5.2' });
  assert.equal(await metricValue(registry, 'kvstore_server_version', { server_version: '3.5.2' }), 1);
  m.setClusterVersion('not_decided');
  assert.equal(await metricValue(registry, 'kvstore_cluster_version'), undefined);
  m.setClusterVersion('3.4.0');
  m.setClusterVersion('3.5.0');
  assert.equal(await metricValue(registry, 'kvstore_cluster_version', { cluster_version: '3.4' }), 0);
  assert.equal(await metricValue(registry, 'kvstore_cluster_version', { cluster_version: '3.5' }), 1);
  m.setServerId('8e9e05c52164694d');
  assert.equal(await metricValue(registry, 'kvstore_server_id', { server_id: '8e9e05c52164694d' }), 1);
});

void test('two registries are independent (no default registry, no shared state)', async () => {
  const a = new Registry();
  const b = new Registry();
  const ma = createMemberMetrics(a, { serverVersion: '3.4.45' });
  createMemberMetrics(b, { serverVersion: '3.4.45' });
  ma.isLeader.set(1);
  assert.equal(await metricValue(a, 'kvstore_server_is_leader'), 1);
  assert.equal(await metricValue(b, 'kvstore_server_is_leader'), 0);
});

void test('majorMinor', () => {
  assert.equal(majorMinor('3.4.0'), '3.4');
  assert.equal(majorMinor('3.5'), '3.5');
  assert.equal(majorMinor('not_decided'), undefined);
});

void test('the auth revision gauge', async () => {
  const registry = new Registry();
  const m = createMemberMetrics(registry, { serverVersion: '3.4.45' });
  m.authRevision.set(7);
  assert.match(await registry.metrics(), /^kvstore_debugging_auth_revision 7$/m);
});
