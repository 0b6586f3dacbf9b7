// The markdown report shows, per row and server, the members' and the generator's CPU share
// (cores, % of the machine, µs per request), and per member in a cluster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../../bench/report.js';
import { selectRows } from '../../../bench/rows.js';
import type { BenchRun, Measurement, MemberSample } from '../../../bench/run-record.js';
import type { ServerName } from '../../../bench/servers.js';

const member = (name: string, role: MemberSample['role'], cores: number): MemberSample => ({
  name, role, connections: 5, cores, rssBytes: 100 * 2 ** 20, hwmBytes: 120 * 2 ** 20,
});

function measurement(server: ServerName, throughput: number, members: MemberSample[], generatorCores: number): Measurement {
  return {
    row: 'put-100', server, round: 1, throughput, putThroughput: null, p50Ms: 5, p99Ms: 20, p999Ms: 30, ok: throughput * 5, errors: 0,
    firstError: null, generatorCores, serverCores: members.reduce((a, m) => a + m.cores, 0), otherCores: 0.1,
    rssBytes: 300 * 2 ** 20, hwmBytes: 360 * 2 ** 20, members, leaderBefore: members[0].name, leaderAfter: members[0].name, failure: null,
  };
}

const run: BenchRun = {
  info: {
    startedAt: '2026-01-01T00:00:00.000Z', servers: ['etcd', 'kvstore'], versions: { etcd: '3.4.23', kvstore: '3.5.0' }, members: 2,
    endpointOrder: 'followers-first', goal: { minThroughputRatio: 0.5, maxP99Ratio: 2 }, rows: selectRows(['put-100'], 'cluster', {}),
    rounds: 1, seconds: 5, warmupSeconds: 1, serverWarmupSeconds: 5, valueSize: 256, generator: 'go', generatorProcs: 2,
    hostPrefix: '127.77', cores: 2, loadAverage: { before: 0.5, after: 0.6 },
  },
  measurements: [
    measurement('etcd', 10_000, [member('bench-etcd-1', 'leader', 0.6), member('bench-etcd-2', 'follower', 0.4)], 0.4),
    measurement('kvstore', 5_000, [member('bench-kvstore-1', 'leader', 0.8), member('bench-kvstore-2', 'follower', 0.2)], 0.2),
  ],
};

void test('CPU table: members 1.00 core (50 %) at 10 k/s = 100 µs/op; generator 0.40 (20 %) = 40 µs/op', () => {
  const md = renderMarkdown(run);
  const line = md.split('\n').find((l) => l.startsWith('| put, 100 clients') && l.includes('(50 %)'));
  assert.ok(line, md);
  const cells = line.split('|').map((c) => c.trim()).filter((c) => c !== '');
  // load | etcd members | etcd leader | etcd µs/op | generator | generator µs/op | other | kvstore …
  assert.deepEqual(cells.slice(1, 7), ['1.00 (50 %)', '0.60 (30 %)', '100', '0.40 (20 %)', '40', '0.10']);
  assert.deepEqual(cells.slice(7), ['1.00 (50 %)', '0.80 (40 %)', '200', '0.20 (10 %)', '40', '0.10']);
});

void test('cluster: one cell per member with its role, share and cost per request', () => {
  const md = renderMarkdown(run);
  assert.match(md, /L 0\.60 \(30 %\), 60 µs\/op \| F 0\.40 \(20 %\), 40 µs\/op \| L 0\.80 \(40 %\), 160 µs\/op \| F 0\.20 \(10 %\), 40 µs\/op/);
  assert.match(md, /Load generator: kvload \(Go clientv3/);
  assert.match(md, /\| 10,000 \| 5\.00 \| 20\.0 \| 5,000 \| 5\.00 \| 20\.0 \| 0\.50 \| 1\.00 \| ✓ \|/);
});

void test('summary: one column per row headed by the member count, ratios of throughput, p99 and server CPU per op', () => {
  const md = renderMarkdown(run);
  assert.match(md, /\| kvstore \/ etcd \| 2 members: put, 100 clients \/ 10 conns, one key \|/);
  assert.match(md, /\| throughput \| 0\.50 \|/);
  assert.match(md, /\| p99 \| 1\.00 \|/);
  assert.match(md, /\| server CPU µs per op \| 2\.00 \|/);
  assert.match(md, /\| generator, % of machine \(etcd \/ kvstore\) \| 20 % \/ 10 % \|/);
});
