// The keyed work queue on virtual time: dedup, no concurrent runs of a key, delays, backoff, drain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Outcome, WorkQueue, type ProcessOutcome } from '../../../operator/runtime/work-queue.js';
import { exponentialDelay } from '../../../operator/runtime/backoff.js';
import { ManualTimers, flush } from './manual-timers.js';

/** A process function whose runs the test finishes by hand. */
function gated() {
  const runs: string[] = [];
  const open = new Map<string, (o: ProcessOutcome) => void>();
  let concurrent = 0;
  let maxConcurrent = 0;
  const perKey = new Map<string, number>();
  let overlapped = false;
  const process = (key: string): Promise<ProcessOutcome> => {
    runs.push(key);
    concurrent += 1;
    maxConcurrent = Math.max(maxConcurrent, concurrent);
    perKey.set(key, (perKey.get(key) ?? 0) + 1);
    if ((perKey.get(key) ?? 0) > 1) overlapped = true;
    return new Promise((resolve) => {
      open.set(key, (o) => {
        open.delete(key);
        concurrent -= 1;
        perKey.set(key, (perKey.get(key) ?? 1) - 1);
        resolve(o);
      });
    });
  };
  const finish = async (key: string, o: ProcessOutcome = Outcome.done): Promise<void> => {
    const f = open.get(key);
    assert.ok(f, `${key} is not running`);
    f(o);
    await flush();
  };
  return { runs, process, finish, open, max: () => maxConcurrent, overlapped: () => overlapped };
}

void test('a key added several times while waiting runs once', async () => {
  const timers = new ManualTimers();
  const g = gated();
  const q = new WorkQueue<string>({ process: g.process, timers });
  q.add('a');
  q.add('a');
  q.add('b');
  q.add('a');
  assert.equal(q.depth(), 2);
  q.start();
  await flush();
  await g.finish('a');
  await g.finish('b');
  assert.deepEqual(g.runs, ['a', 'b']);
  assert.equal(q.depth(), 0);
});

void test('a key re-added while it runs runs again after, never concurrently', async () => {
  const timers = new ManualTimers();
  const g = gated();
  const q = new WorkQueue<string>({ process: g.process, timers, workers: 3 });
  q.start();
  q.add('a');
  await flush();
  q.add('a');
  q.add('a');
  await flush();
  assert.deepEqual(g.runs, ['a'], 'not started twice at once');
  await g.finish('a');
  assert.deepEqual(g.runs, ['a', 'a']);
  await g.finish('a');
  assert.deepEqual(g.runs, ['a', 'a']);
  assert.equal(g.overlapped(), false);
});

void test('N workers run N different keys at once, not more', async () => {
  const timers = new ManualTimers();
  const g = gated();
  const q = new WorkQueue<string>({ process: g.process, timers, workers: 2 });
  for (const k of ['a', 'b', 'c', 'd']) q.add(k);
  q.start();
  await flush();
  assert.deepEqual(g.runs, ['a', 'b']);
  await g.finish('b');
  assert.deepEqual(g.runs, ['a', 'b', 'c']);
  await g.finish('a');
  await g.finish('c');
  await g.finish('d');
  assert.equal(g.max(), 2);
});

void test('addAfter waits the delay; an earlier pending delay wins over a later one', async () => {
  const timers = new ManualTimers();
  const g = gated();
  const q = new WorkQueue<string>({ process: g.process, timers });
  q.start();
  q.addAfter('a', 5000);
  q.addAfter('a', 9000);
  q.addAfter('a', 2000);
  assert.deepEqual(timers.pending(), [2000]);
  await timers.advance(1999);
  assert.deepEqual(g.runs, []);
  await timers.advance(1);
  assert.deepEqual(g.runs, ['a']);
  await g.finish('a');
  await timers.advance(60_000);
  assert.deepEqual(g.runs, ['a'], 'the replaced delays do not fire');
});

void test('RequeueAfter from the process function runs the key again after that delay', async () => {
  const timers = new ManualTimers();
  const g = gated();
  const q = new WorkQueue<string>({ process: g.process, timers });
  q.start();
  q.add('a');
  await flush();
  await g.finish('a', Outcome.requeueAfter(30_000));
  await timers.advance(29_999);
  assert.equal(g.runs.length, 1);
  await timers.advance(1);
  assert.equal(g.runs.length, 2);
  await g.finish('a');
});

void test('failures back off exponentially from 1 s to the 5 min cap; Done resets', async () => {
  const timers = new ManualTimers();
  const failures: Array<[string, number]> = [];
  let fail = true;
  let runs = 0;
  const q = new WorkQueue<string>({
    timers,
    process: () => {
      runs += 1;
      if (fail) return Promise.reject(new Error('boom'));
      return Promise.resolve(Outcome.done);
    },
    onFailure: (key, _e, delay) => failures.push([key, delay]),
  });
  q.start();
  q.add('a');
  await flush();
  const expected = [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 300000, 300000];
  for (let i = 1; i < expected.length; i++) {
    await timers.advance(expected[i - 1] as number);
  }
  assert.deepEqual(failures.map(([, d]) => d), expected);
  assert.equal(q.failures('a'), expected.length);
  fail = false;
  await timers.advance(300_000);
  assert.equal(q.failures('a'), 0, 'a successful run forgets the key');
  fail = true;
  q.add('a');
  await flush();
  assert.equal(failures.at(-1)?.[1], 1000, 'after forget the first delay is the base again');
  assert.equal(runs, expected.length + 2);
  await q.shutdown();
});

void test('forget resets the backoff of a key', () => {
  const timers = new ManualTimers();
  const q = new WorkQueue<string>({ process: () => Promise.resolve(Outcome.done), timers });
  assert.equal(q.addRateLimited('k'), 1000);
  assert.equal(q.addRateLimited('k'), 2000);
  assert.equal(q.addRateLimited('k'), 4000);
  q.forget('k');
  assert.equal(q.addRateLimited('k'), 1000);
  assert.equal(exponentialDelay(0), 0);
  assert.equal(exponentialDelay(2000), 300_000);
});

void test('depth is reported as keys wait and leave', async () => {
  const timers = new ManualTimers();
  const g = gated();
  const depths: number[] = [];
  const q = new WorkQueue<string>({ process: g.process, timers, onDepth: (d) => depths.push(d) });
  q.add('a');
  q.add('b');
  q.start();
  await flush();
  await g.finish('a');
  await g.finish('b');
  assert.deepEqual(depths, [1, 2, 1, 0]);
});

void test('shutdown drains queued and in-flight keys, drops delays and later adds', async () => {
  const timers = new ManualTimers();
  const g = gated();
  const q = new WorkQueue<string>({ process: g.process, timers });
  q.add('a');
  q.add('b');
  q.addAfter('c', 1000);
  q.start();
  await flush();
  let done = false;
  const closing = q.shutdown().then(() => {
    done = true;
  });
  q.add('d');
  assert.equal(q.delayedCount(), 0);
  await g.finish('a', Outcome.requeueAfter(10));
  assert.equal(done, false);
  await g.finish('b');
  await closing;
  assert.equal(done, true);
  await timers.advance(10_000);
  assert.deepEqual(g.runs, ['a', 'b']);
});

void test('shutdown of an idle queue resolves at once', async () => {
  const q = new WorkQueue<string>({ process: () => Promise.resolve(Outcome.done), timers: new ManualTimers() });
  await q.shutdown();
});

void test('shutdown without drain drops queued keys and re-adds, waits for runs in flight', async () => {
  const timers = new ManualTimers();
  const g = gated();
  const q = new WorkQueue<string>({ process: g.process, timers });
  q.add('a');
  q.add('b');
  q.start();
  await flush();
  q.add('a'); // re-added while in flight
  let done = false;
  const closing = q.shutdown({ drain: false }).then(() => {
    done = true;
  });
  assert.equal(q.depth(), 0);
  await flush();
  assert.equal(done, false);
  await g.finish('a');
  await closing;
  assert.deepEqual(g.runs, ['a']);
});
