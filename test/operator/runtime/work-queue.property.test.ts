// Laws of the work queue under random schedules (fast-check): a key never runs twice at once,
// never more runs than workers, and every add is followed by a run of that key that starts
// after it (nothing added is lost; for addAfter: after the call), whatever the mix of adds, delays, outcomes and time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Outcome, WorkQueue, type ProcessOutcome } from '../../../operator/runtime/work-queue.js';
import { ManualTimers, flush } from './manual-timers.js';

type Op =
  | { readonly op: 'add'; readonly key: string }
  | { readonly op: 'addAfter'; readonly key: string; readonly ms: number }
  | { readonly op: 'advance'; readonly ms: number }
  | { readonly op: 'finish'; readonly pick: number; readonly outcome: 'done' | 'retry' | 'requeue' };

const key = fc.constantFrom('a', 'b', 'c', 'd');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), key }),
  fc.record({ op: fc.constant('addAfter' as const), key, ms: fc.integer({ min: 0, max: 5000 }) }),
  fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 4000 }) }),
  fc.record({ op: fc.constant('finish' as const), pick: fc.nat(), outcome: fc.constantFrom('done' as const, 'retry' as const, 'requeue' as const) }),
);

void test('work queue laws hold under random schedules', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 60 }), fc.integer({ min: 1, max: 3 }), async (ops, workers) => {
      const timers = new ManualTimers();
      let seq = 0;
      const running = new Map<string, (o: ProcessOutcome) => void>();
      const lastAdd = new Map<string, number>();
      const lastStart = new Map<string, number>();
      let maxParallel = 0;
      const violations: string[] = [];
      const q = new WorkQueue<string>({
        timers,
        workers,
        backoff: { baseMs: 100, capMs: 1000 },
        process: (k) => {
          if (running.has(k)) violations.push(`${k} runs twice at once`); // a throw here would be taken as Retry
          lastStart.set(k, ++seq);
          return new Promise((resolve) => {
            running.set(k, resolve);
            maxParallel = Math.max(maxParallel, running.size);
          });
        },
      });
      q.start();
      const finish = async (k: string, o: ProcessOutcome) => {
        const resolve = running.get(k);
        running.delete(k);
        resolve?.(o);
        await flush();
      };
      for (const o of ops) {
        if (o.op === 'add') {
          lastAdd.set(o.key, ++seq); // before the call: a free worker starts the run inside add()
          q.add(o.key);
          await flush();
        } else if (o.op === 'addAfter') {
          // An earlier pending delay of the key wins, so the law is: a run starts after the call.
          lastAdd.set(o.key, ++seq);
          q.addAfter(o.key, o.ms);
          await flush();
        } else if (o.op === 'advance') {
          await timers.advance(o.ms);
        } else {
          const keys = [...running.keys()];
          const k = keys[o.pick % Math.max(1, keys.length)];
          if (k !== undefined) await finish(k, o.outcome === 'done' ? Outcome.done : o.outcome === 'retry' ? Outcome.retry(new Error('x')) : Outcome.requeueAfter(500));
        }
        assert.ok(running.size <= workers);
      }
      // Quiesce: finish everything with Done and let every delay fall due.
      for (let round = 0; round < 50 && (running.size > 0 || q.depth() > 0 || q.delayedCount() > 0); round++) {
        for (const k of [...running.keys()]) await finish(k, Outcome.done);
        await timers.advance(10_000);
      }
      assert.equal(running.size, 0);
      for (const [k, added] of lastAdd) {
        assert.ok((lastStart.get(k) ?? 0) > added, `${k} added at ${added} but last started at ${lastStart.get(k) ?? 'never'}`);
      }
      assert.ok(maxParallel <= workers);
      assert.deepEqual(violations, []);
      await q.shutdown();
    }),
    { numRuns: 200 },
  );
});
