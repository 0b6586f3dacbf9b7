/** What waits in memory for the backend is counted: added with each change, gone with each write. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Event_EventType, type Event } from '../../../proto/gen/etcd/kv.js';
import { Unflushed } from '../../../server/mvcc/unflushed.js';

const put = (key: string, valueBytes: number): Event => ({
  type: Event_EventType.PUT,
  kv: { key: Buffer.from(key), createRevision: 1n, modRevision: 1n, version: 1n, value: Buffer.alloc(valueBytes), lease: 0n },
  prevKv: undefined,
});

void test('bytes grow with the changes added and fall with each release', () => {
  const u = new Unflushed();
  u.add(2n, [put('a', 100)]);
  u.add(3n, [put('bb', 1000), put('c', 10)]);
  assert.equal(u.bytes, 101 + 1002 + 11);
  const first = u.takePending();
  u.add(4n, [put('d', 5)]);
  u.requeue(first);
  assert.equal(u.bytes, 1114 + 6, 'a failed write keeps its changes counted');
  u.release(u.takePending());
  assert.equal(u.bytes, 0);
  u.add(5n, [put('e', 7)]);
  u.add(6n, [put('f', 9)]);
  u.releaseThrough(5n);
  assert.equal(u.bytes, 10);
});
