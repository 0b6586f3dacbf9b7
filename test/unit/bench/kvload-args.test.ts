// The kvload command line for each load kind: etcd benchmark-style flags, in the order kvload reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kvloadArgs } from '../../../bench/kvload/args.js';
import type { LoadPlan } from '../../../bench/load-spec.js';

const BASE: Omit<LoadPlan, 'load'> = {
  targets: ['127.77.1.1:2379', '127.77.1.2:2379'],
  clients: 100,
  connections: 10,
  valueSize: 256,
  warmupMs: 1000,
  measureMs: 5000,
};
const COMMON = ['--endpoints', '127.77.1.1:2379,127.77.1.2:2379', '--conns', '10', '--clients', '100', '--warmup', '1000ms', '--duration', '5000ms'];

void test('put over 100 k keys in turn', () => {
  assert.deepEqual(kvloadArgs({ ...BASE, load: { kind: 'put', keySpace: 100_000, sequentialKeys: true } }), [
    ...COMMON, 'put', '--key-size', '8', '--key-space-size', '100000', '--val-size', '256', '--sequential-keys',
  ]);
});

void test('put on one key (random choice among one)', () => {
  assert.deepEqual(kvloadArgs({ ...BASE, load: { kind: 'put', keySpace: 1, sequentialKeys: false } }).slice(COMMON.length), [
    'put', '--key-size', '8', '--key-space-size', '1', '--val-size', '256',
  ]);
});

void test("a put row's own value size replaces the run's", () => {
  assert.deepEqual(kvloadArgs({ ...BASE, load: { kind: 'put', keySpace: 1000, sequentialKeys: true, valueBytes: 102_400 } }).slice(COMMON.length), [
    'put', '--key-size', '8', '--key-space-size', '1000', '--val-size', '102400', '--sequential-keys',
  ]);
});

void test('range: the prepared key, l or s consistency', () => {
  assert.deepEqual(kvloadArgs({ ...BASE, load: { kind: 'range', serializable: false } }).slice(COMMON.length), [
    'range', 'bench/range/key', '--consistency', 'l',
  ]);
  assert.deepEqual(kvloadArgs({ ...BASE, load: { kind: 'range', serializable: true } }).slice(-1), ['s']);
});

void test('txn-put and watch', () => {
  assert.deepEqual(kvloadArgs({ ...BASE, load: { kind: 'txn-put', keySpace: 100_000, txnOps: 2 } }).slice(COMMON.length), [
    'txn-put', '--key-size', '8', '--key-space-size', '100000', '--val-size', '256', '--txn-ops', '2',
  ]);
  assert.deepEqual(
    kvloadArgs({ ...BASE, valueSize: 4, load: { kind: 'watch', streams: 100, watchersPerStream: 100, keySpace: 100, putRate: 200 } }).slice(
      COMMON.length,
    ),
    ['watch', '--streams', '100', '--watch-per-stream', '100', '--key-size', '8', '--key-space-size', '100', '--val-size', '8', '--put-rate', '200'],
    'a watched value is never shorter than its 8-byte send stamp',
  );
});

void test('a window shorter than a millisecond still asks for one; no targets is an error', () => {
  const args = kvloadArgs({ ...BASE, measureMs: 0.2, load: { kind: 'range', serializable: true } });
  assert.equal(args[args.indexOf('--duration') + 1], '1ms');
  assert.throws(() => kvloadArgs({ ...BASE, targets: [], load: { kind: 'range', serializable: true } }), /at least one target/);
});
