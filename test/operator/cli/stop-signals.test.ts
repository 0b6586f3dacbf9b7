/**
 * stop-signals.ts: a stop signal delivered several times at once (a process-group kill that
 * also reaches the operator through `npm start`'s wrapper) is one stop; a second signal a
 * while later is the user asking to leave now.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stopSignals } from '../../../operator/cli/stop-signals.js';

void test('the first signal stops, copies within the window repeat it, a later one forces', () => {
  const meaning = stopSignals(1000);
  assert.deepEqual(
    [0, 5, 40, 999, 1000, 3000].map((t) => meaning(10_000 + t)),
    ['stop', 'repeat', 'repeat', 'repeat', 'force', 'force'],
  );
});

void test('each command gets its own window', () => {
  const a = stopSignals(1000);
  const b = stopSignals(1000);
  assert.equal(a(0), 'stop');
  assert.equal(b(5000), 'stop');
  assert.equal(a(5000), 'force');
  assert.equal(b(5001), 'repeat');
});
