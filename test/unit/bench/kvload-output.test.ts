// Reading the Go generator's JSON lines: events, results (with histogram buckets), errors, and
// malformed lines; converting a result into the bench's rates and CPU cores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseKvloadLine, toLoadResult } from '../../../bench/kvload/output.js';
import { count, quantile } from '../../../bench/load/histogram.js';

const RESULT = {
  event: 'result',
  kind: 'put',
  count: 3,
  errors: 1,
  firstError: 'etcdserver: request timed out',
  durationSeconds: 2,
  throughput: 1.5,
  latencyMicros: { mean: 1000, p50: 1000, p90: 2000, p99: 2000, p999: 2000 },
  histogram: [
    [694, 2],
    [764, 1],
  ],
  cpuMicros: 500_000,
  conns: 1,
  clients: 1,
};

void test('window events parse to their names', () => {
  for (const event of ['ready', 'window-start', 'window-end'] as const) {
    assert.deepEqual(parseKvloadLine(JSON.stringify({ event })), { event });
  }
});

void test('a result line rebuilds the histogram bucket for bucket', () => {
  const msg = parseKvloadLine(JSON.stringify(RESULT));
  assert.equal(msg.event, 'result');
  if (msg.event !== 'result') return;
  const r = msg.result;
  assert.equal(r.count, 3);
  assert.equal(r.errors, 1);
  assert.equal(r.firstError, 'etcdserver: request timed out');
  assert.equal(r.histogram[694], 2);
  assert.equal(r.histogram[764], 1);
  assert.equal(count(r.histogram), 3);
  // bucket 694 covers [1.01^694, 1.01^695) µs ≈ 1 ms; the median is its geometric middle
  assert.ok(Math.abs(quantile(r.histogram, 0.5) - 1.01 ** 694.5) < 1e-6);
  assert.equal(r.puts, null);
  assert.equal(r.putErrors, null);
});

void test('toLoadResult: rates per second of window, generator cores from its CPU µs, put errors count as errors', () => {
  const msg = parseKvloadLine(JSON.stringify({ ...RESULT, kind: 'watch', puts: 10, putErrors: 2 }));
  if (msg.event !== 'result') throw new Error('expected a result');
  const r = toLoadResult(msg.result);
  assert.equal(r.throughput, 1.5);
  assert.equal(r.ok, 3);
  assert.equal(r.errors, 3);
  assert.equal(r.generatorCores, 0.25);
  assert.equal(r.putThroughput, 5);
});

void test('a zero-length window gives NaN rates rather than infinities', () => {
  const msg = parseKvloadLine(JSON.stringify({ ...RESULT, durationSeconds: 0 }));
  if (msg.event !== 'result') throw new Error('expected a result');
  const r = toLoadResult(msg.result);
  assert.ok(Number.isNaN(r.throughput));
  assert.ok(Number.isNaN(r.generatorCores));
});

void test('an error line carries its message; an empty firstError reads as none', () => {
  assert.deepEqual(parseKvloadLine('{"event":"error","message":"connecting to x: context deadline exceeded"}'), {
    event: 'error',
    message: 'connecting to x: context deadline exceeded',
  });
  const msg = parseKvloadLine(JSON.stringify({ ...RESULT, firstError: '' }));
  assert.equal(msg.event === 'result' ? msg.result.firstError : 'x', null);
});

void test('malformed lines are rejected with the offending text', () => {
  assert.throws(() => parseKvloadLine('not json'), /not JSON: not json/);
  assert.throws(() => parseKvloadLine('[1]'), /not an object/);
  assert.throws(() => parseKvloadLine('{"event":"nope"}'), /unknown event/);
  assert.throws(() => parseKvloadLine(JSON.stringify({ ...RESULT, count: 'three' })), /count is not a number/);
  assert.throws(() => parseKvloadLine(JSON.stringify({ ...RESULT, cpuMicros: -1 })), /cpuMicros/);
  assert.throws(() => parseKvloadLine(JSON.stringify({ ...RESULT, latencyMicros: undefined })), /latencyMicros missing/);
  assert.throws(() => parseKvloadLine(JSON.stringify({ ...RESULT, histogram: [[5000, 1]] })), /bad histogram bucket/);
  assert.throws(() => parseKvloadLine(JSON.stringify({ ...RESULT, histogram: [[1, 1.5]] })), /bad histogram bucket/);
});
