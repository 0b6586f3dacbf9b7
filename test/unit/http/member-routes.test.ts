/** /version, /health and /metrics on the koa app. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Registry } from 'prom-client';
import { healthBody35 } from '../../../server/api/http/health-route.js';
import { createMemberMetrics } from '../../../server/metrics/member-metrics.js';
import { call, fakeServices, serve } from './helpers.js';

void test('/version: GET → exact JSON without trailing newline; other methods 405 with Allow: GET', async () => {
  let cluster = 'not_decided';
  const s = await serve(fakeServices({ info: { serverVersion: '3.4.45', clusterVersion: () => cluster } }));
  try {
    const r = await call(s.port, 'GET', '/version');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.body, '{"etcdserver":"3.4.45","etcdcluster":"not_decided"}');
    cluster = '3.4.0';
    assert.equal((await call(s.port, 'GET', '/version')).body, '{"etcdserver":"3.4.45","etcdcluster":"3.4.0"}');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const m = await call(s.port, method, '/version');
      assert.equal(m.status, 405, method);
      assert.equal(m.headers.allow, 'GET');
      assert.equal(m.body, 'Method Not Allowed\n');
    }
  } finally {
    await s.close();
  }
});

void test('/health: 200 {"health":"true"} / 503 {"health":"false"} (3.4 shape) and counts outcomes', async () => {
  let healthy = true;
  const outcomes: boolean[] = [];
  const s = await serve(
    fakeServices({ info: { health: async () => ({ healthy, reason: healthy ? '' : 'RAFT NO LEADER' }) } }),
    { onHealthChecked: (h) => outcomes.push(h) },
  );
  try {
    const ok = await call(s.port, 'GET', '/health');
    assert.equal(ok.status, 200);
    assert.equal(ok.body, '{"health":"true"}');
    healthy = false;
    const bad = await call(s.port, 'GET', '/health');
    assert.equal(bad.status, 503);
    assert.equal(bad.body, '{"health":"false"}\n');
    assert.equal(bad.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(bad.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(outcomes, [true, false]);
    assert.equal((await call(s.port, 'POST', '/health')).status, 405);
  } finally {
    await s.close();
  }
});

void test('/health: the body builder is a parameter (3.5 shape with reason)', async () => {
  const s = await serve(fakeServices({ info: { health: async () => ({ healthy: false, reason: 'ALARM NOSPACE' }) } }), {
    healthBody: healthBody35,
  });
  try {
    const r = await call(s.port, 'GET', '/health');
    assert.equal(r.status, 503);
    assert.equal(r.body, '{"health":"false","reason":"ALARM NOSPACE"}\n');
  } finally {
    await s.close();
  }
});

void test('/metrics: Prometheus text of exactly the given registry', async () => {
  const registry = new Registry();
  const c = new Counter({ name: 'kvstore_test_total', help: 'test counter', registers: [registry] });
  c.inc(3);
  const s = await serve(fakeServices(), { registry });
  try {
    const r = await call(s.port, 'GET', '/metrics');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    assert.match(r.body, /^kvstore_test_total 3$/m);
    assert.doesNotMatch(r.body, /process_cpu/); // nothing from the global registry
  } finally {
    await s.close();
  }
});

void test('/metrics with member metrics: kvstore_server_is_leader and friends, process metrics', async () => {
  const registry = new Registry();
  const m = createMemberMetrics(registry, { serverVersion: '3.4.45' });
  m.isLeader.set(1);
  m.setClusterVersion('3.4.0');
  const s = await serve(fakeServices(), { registry });
  try {
    const r = await call(s.port, 'GET', '/metrics');
    assert.match(r.body, /^kvstore_server_is_leader 1$/m);
    assert.match(r.body, /^kvstore_server_version\{server_version="3\.4\.45"\} 1$/m);
    assert.match(r.body, /^kvstore_cluster_version\{cluster_version="3\.4"\} 1$/m);
    assert.match(r.body, /^process_cpu_user_seconds_total /m);
  } finally {
    await s.close();
  }
});
