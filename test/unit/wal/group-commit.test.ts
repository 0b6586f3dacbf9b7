/** Group commit: concurrent saves share fsyncs, resolve in call order, and are all durable. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { entry, hardState, indexes, open, range, tempWalDir } from './helpers.js';

for (const syncMode of ['dsync', 'datasync'] as const) {
  void test(`many concurrent saves need fewer fsyncs than saves (${syncMode})`, async (t) => {
    const dir = await tempWalDir(t);
    let fsyncs = 0;
    let written = 0;
    const { wal } = await open(dir, {
      syncMode,
      onFsync: (seconds) => {
        assert.ok(seconds >= 0);
        fsyncs++;
      },
      onWriteBytes: (n) => {
        written += n;
      },
    });
    fsyncs = 0;
    const saves = 500;
    const resolved: number[] = [];
    const all: Promise<void>[] = [];
    for (let i = 1; i <= saves; i++) {
      all.push(wal.save([entry(i)], hardState(1, 1, i - 1)).then(() => void resolved.push(i)));
    }
    await Promise.all(all);
    assert.ok(fsyncs < saves, `expected fewer than ${saves} fsyncs, saw ${fsyncs}`);
    assert.ok(written > 0);
    assert.deepEqual(resolved, Array.from({ length: saves }, (_, k) => k + 1));
    await wal.close();

    const again = await open(dir);
    assert.deepEqual(indexes(again.contents.entries), range(1, saves));
    assert.deepEqual(again.contents.hardState, hardState(1, 1, saves - 1));
    await again.wal.close();
  });
}

void test('waves of saves issued while earlier ones are in flight are all durable', async (t) => {
  const dir = await tempWalDir(t);
  let fsyncs = 0;
  const { wal } = await open(dir, { onFsync: () => void fsyncs++ });
  fsyncs = 0;
  let next = 1;
  const waves: Promise<unknown>[] = [];
  for (let wave = 0; wave < 20; wave++) {
    for (let k = 0; k < 10; k++) waves.push(wal.save([entry(next++)]));
    await new Promise((r) => setImmediate(r));
  }
  await Promise.all(waves);
  assert.ok(fsyncs < 200, `saw ${fsyncs} fsyncs for 200 saves`);
  await wal.close();
  const again = await open(dir);
  assert.deepEqual(indexes(again.contents.entries), range(1, 200));
  await again.wal.close();
});
