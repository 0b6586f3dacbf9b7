// Go duration parsing (flag values such as 5s, 1h30m).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseGoDuration } from '../../../server/config/duration.js';

const VALID: ReadonlyArray<readonly [string, number]> = [
  ['0', 0],
  ['-0', 0],
  ['5s', 5000],
  ['300ms', 300],
  ['1h30m', 5_400_000],
  ['2h45m10s', 9_910_000],
  ['90s', 90_000],
  ['1.5h', 5_400_000],
  ['.5s', 500],
  ['1.s', 1000],
  ['1500us', 1.5],
  ['1500µs', 1.5],
  ['1500μs', 1.5],
  ['1000000ns', 1],
  ['-1m', -60_000],
  ['+2m', 120_000],
];

const INVALID: ReadonlyArray<readonly [string, RegExp]> = [
  ['', /invalid duration ""/],
  ['1', /missing unit in duration "1"/],
  ['1x', /unknown unit "x" in duration "1x"/],
  ['h', /invalid duration "h"/],
  ['.s', /invalid duration ".s"/],
  ['1h 30m', /unknown unit "h " in duration/],
  ['abc', /invalid duration "abc"/],
];

for (const [text, ms] of VALID) {
  void test(`duration ${JSON.stringify(text)} = ${ms} ms`, () => {
    assert.deepEqual(parseGoDuration(text), { ok: true, ms });
  });
}

for (const [text, reason] of INVALID) {
  void test(`duration ${JSON.stringify(text)} is rejected`, () => {
    const r = parseGoDuration(text);
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.reason, reason);
  });
}

void test('h/m/s/ms compositions add up', () => {
  fc.assert(
    fc.property(fc.nat(1000), fc.nat(59), fc.nat(59), fc.nat(999), (h, m, s, ms) => {
      assert.deepEqual(parseGoDuration(`${h}h${m}m${s}s${ms}ms`), { ok: true, ms: ((h * 60 + m) * 60 + s) * 1000 + ms });
    }),
  );
});
