/** StreamSlots (--max-concurrent-streams over gateway calls): a bounded count with a FIFO queue of waiters. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StreamSlots, type Release } from '../../../server/api/http/stream-slots.js';

const settled = async <T>(p: Promise<T>): Promise<{ done: boolean; value?: T }> => {
  let out: { done: boolean; value?: T } = { done: false };
  void p.then((value) => (out = { done: true, value }));
  await new Promise((r) => setImmediate(r));
  return out;
};

void test('up to the limit at once; the next waits until a slot is released, in arrival order', async () => {
  const slots = new StreamSlots(2);
  const a = await slots.acquire();
  const b = await slots.acquire();
  assert.ok(a && b);
  const c = slots.acquire();
  const d = slots.acquire();
  assert.equal((await settled(c)).done, false);
  assert.equal(slots.waiting, 2);
  a();
  a(); // a second release of the same slot does nothing
  assert.equal((await settled(c)).done, true);
  assert.equal((await settled(d)).done, false);
  b();
  const dr = (await settled(d)).value;
  assert.ok(dr);
  assert.equal(slots.used, 2);
  ((await c) as Release)();
  dr();
  assert.equal(slots.used, 0);
  assert.equal(slots.waiting, 0);
});

void test('a waiter that is abandoned leaves the queue and holds nothing', async () => {
  const slots = new StreamSlots(1);
  const a = await slots.acquire();
  const gone = new AbortController();
  const b = slots.acquire(gone.signal);
  const c = slots.acquire();
  gone.abort();
  assert.equal(await b, undefined);
  assert.equal(slots.waiting, 1);
  a!();
  const cr = await c;
  assert.ok(cr);
  assert.equal(slots.used, 1);
  const aborted = new AbortController();
  aborted.abort();
  assert.equal(await slots.acquire(aborted.signal), undefined);
  cr();
  assert.equal(slots.used, 0);
});

void test('a limit below one is one', async () => {
  const slots = new StreamSlots(0);
  const a = await slots.acquire();
  assert.ok(a);
  assert.equal((await settled(slots.acquire())).done, false);
});
