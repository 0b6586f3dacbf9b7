/** Read barriers: batching under one ctx, release once applied, retry after a leader change, deadlines. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadBarriers } from '../../../server/member/read-barrier.js';

const settled = async <T>(p: Promise<T>): Promise<T | 'pending'> => Promise.race([p, new Promise<'pending'>((r) => setImmediate(() => r('pending')))]);

void test('barriers asked in one turn share a ctx and are released once the confirmed index is applied', async () => {
  const b = new ReadBarriers(7n);
  const a = b.wait(1000);
  const c = b.wait(1000);
  const ctx = b.takeQueued()!;
  assert.equal(ctx.readBigUInt64BE(0), 7n);
  assert.equal(b.takeQueued(), undefined);
  b.confirmed(ctx, 10);
  b.applied(9);
  assert.equal(await settled(a), 'pending');
  b.applied(10);
  assert.deepEqual(await a, { ok: true, value: undefined });
  assert.deepEqual(await c, { ok: true, value: undefined });
});

void test('after a leader change an unconfirmed request is asked again under a new ctx; a late answer to the old one is ignored', async () => {
  const b = new ReadBarriers(7n);
  const a = b.wait(1000);
  const old = b.takeQueued()!;
  const confirmedBefore = b.wait(1000);
  const kept = b.takeQueued()!;
  b.confirmed(kept, 5);
  b.retryUnconfirmed();
  const again = b.takeQueued()!;
  assert.notDeepEqual(again, old);
  b.confirmed(old, 1); // the old leader answers after all: not a read point any more
  b.applied(4);
  assert.equal(await settled(a), 'pending');
  assert.equal(await settled(confirmedBefore), 'pending');
  b.applied(5);
  assert.deepEqual(await confirmedBefore, { ok: true, value: undefined }, 'a confirmed batch keeps its index');
  assert.equal(await settled(a), 'pending');
  b.confirmed(again, 6);
  b.applied(6);
  assert.deepEqual(await a, { ok: true, value: undefined });
});

void test('barriers fail at their deadline, queued or in flight', async () => {
  const b = new ReadBarriers(7n);
  const inFlight = b.wait(100);
  b.takeQueued();
  const queued = b.wait(100);
  b.expire(100);
  assert.equal((await inFlight).ok, false);
  assert.equal((await queued).ok, false);
});
