/**
 * The bench's Go load generator (bench/go/kvload): built from the sources the way `npm run bench`
 * builds it (offline, GOPATH mode, Debian's clientv3), then run for about a second per load
 * kind against one real etcd 3.4. Checks that what it reports is what happened on the server,
 * and that the window is announced before the result. Go and golang-etcd-server-dev are
 * required: without them the build fails with a message naming the package.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ensureKvload } from '../../bench/kvload/build.js';
import { runKvload } from '../../bench/kvload/run.js';
import { RANGE_KEY, type LoadPlan, type LoadSpec } from '../../bench/load-spec.js';
import { count } from '../../bench/load/histogram.js';
import { openKv, put, readPrefix } from '../support/kv-client.js';
import { startEtcd } from '../support/members.js';
import { BUILD_ROOT } from '../support/paths.js';
import type { Member } from '../support/server-process.js';

let binary = '';
let etcd: Member;

before(async () => {
  // The build cache sits next to the compiled tests, so later runs rebuild only what changed.
  binary = await ensureKvload(join(BUILD_ROOT, '.kvload'));
  etcd = await startEtcd();
});

function plan(load: LoadSpec, clients = 4): LoadPlan {
  return { load, targets: [etcd.endpoint], clients, connections: 2, valueSize: 64, warmupMs: 200, measureMs: 1000 };
}

void test('put over 20 keys in turn: every key is written, the tally matches the histogram, the window brackets the result', async () => {
  const seen: string[] = [];
  const r = await runKvload(binary, plan({ kind: 'put', keySpace: 20, sequentialKeys: true }), {
    windowStart: () => seen.push('start'),
    windowEnd: () => seen.push('end'),
  });
  assert.deepEqual(seen, ['start', 'end']);
  assert.equal(r.errors, 0, String(r.firstError));
  assert.ok(r.ok > 20, `only ${r.ok} puts`);
  assert.equal(count(r.histogram), r.ok);
  assert.ok(r.generatorCores > 0 && r.generatorCores < 4, `generator cores ${r.generatorCores}`);
  assert.equal(r.putThroughput, null);
  const kv = openKv(etcd.endpoint);
  try {
    const { kvs } = await readPrefix(kv, '000000');
    assert.deepEqual([...kvs.keys()].sort(), Array.from({ length: 20 }, (_, i) => String(i).padStart(8, '0')));
    assert.ok([...kvs.values()].every((v) => v.value.length === 64));
  } finally {
    kv.close();
  }
});

void test('range (l and s) and txn-put complete without errors', async () => {
  const kv = openKv(etcd.endpoint);
  try {
    await put(kv, RANGE_KEY, 'x', 5000);
  } finally {
    kv.close();
  }
  for (const load of [
    { kind: 'range', serializable: false },
    { kind: 'range', serializable: true },
    { kind: 'txn-put', keySpace: 1000, txnOps: 2 },
  ] as const) {
    const r = await runKvload(binary, plan(load));
    assert.equal(r.errors, 0, `${JSON.stringify(load)}: ${r.firstError}`);
    assert.ok(r.ok > 0 && count(r.histogram) === r.ok, JSON.stringify(load));
  }
});

void test('watch: 10 watchers on 5 keys receive each put on their key (2 events per put)', async () => {
  const r = await runKvload(binary, plan({ kind: 'watch', streams: 2, watchersPerStream: 5, keySpace: 5, putRate: 50 }, 2));
  assert.equal(r.errors, 0, String(r.firstError));
  assert.ok(r.putThroughput !== null && r.putThroughput > 0, `puts/s ${r.putThroughput}`);
  assert.ok(r.ok > 0 && count(r.histogram) === r.ok);
  // Events counted in the window come from puts sent in or just before it: about 2 per put.
  const eventsPerPut = r.throughput / r.putThroughput;
  assert.ok(eventsPerPut > 1 && eventsPerPut < 3, `events per put ${eventsPerPut}`);
});

void test('a failing run rejects with kvload\'s message (unknown endpoint port refuses to connect)', async () => {
  await assert.rejects(
    runKvload(binary, { ...plan({ kind: 'range', serializable: true }), targets: ['127.0.0.1:1'] }),
    /kvload: connecting to 127\.0\.0\.1:1/,
  );
});
