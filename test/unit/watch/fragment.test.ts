// fragment=true (ETCD-FACTS §3.8): responses ≥ the threshold with ≥ 2 events are split.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Event_EventType, type Event } from '../../../proto/gen/etcd/kv.js';
import { WatchResponse } from '../../../proto/gen/etcd/rpc.js';
import { fragmentResponse } from '../../../server/watch/fragment.js';
import { eventsResponse } from '../../../server/watch/responses.js';
import { allEvs, header, k, world } from './harness.js';

const event = (key: string, size: number, rev: bigint): Event => ({
  type: Event_EventType.PUT,
  kv: { key: k(key), createRevision: rev, modRevision: rev, version: 1n, value: Buffer.alloc(size, 1), lease: 0n },
  prevKv: undefined,
});
const size = (r: WatchResponse): number => WatchResponse.encode(r).finish().length;

void test('a response under the threshold, or with one event, is not split', () => {
  const small = eventsResponse(header(5n), 1n, [event('a', 10, 5n), event('b', 10, 5n)]);
  assert.deepEqual(fragmentResponse(small, 1000), [small]);
  const single = eventsResponse(header(5n), 1n, [event('a', 5000, 5n)]);
  assert.deepEqual(fragmentResponse(single, 1000), [single]);
});

void test('parts stay under the threshold, keep order, share header and id; all but the last are flagged', () => {
  const events = Array.from({ length: 10 }, (_, i) => event(`k${i}`, 300, 7n));
  const resp = eventsResponse(header(7n), 4n, events);
  const max = 1000;
  const parts = fragmentResponse(resp, max);
  assert.ok(parts.length > 1);
  assert.deepEqual(
    parts.flatMap((p) => p.events),
    events,
  );
  parts.forEach((p, i) => {
    assert.equal(p.fragment, i < parts.length - 1);
    assert.equal(p.watchId, 4n);
    assert.deepEqual(p.header, header(7n));
    assert.ok(p.events.length === 1 || size({ ...p, fragment: true }) < max, `part ${i} is ${size(p)} bytes`);
  });
  for (let i = 0; i < parts.length - 1; i++) {
    const next = parts[i + 1]?.events[0] as Event;
    const grown = { ...(parts[i] as WatchResponse), events: [...(parts[i] as WatchResponse).events, next] };
    assert.ok(size(grown) >= max, 'each part is as full as the threshold allows');
  }
});

void test('the hub fragments only for watchers that asked for it', () => {
  const w = world({ maxEventBytes: 1000 });
  const c = w.client();
  c.create({ key: k('a'), rangeEnd: k('z'), fragment: true });
  c.create({ key: k('a'), rangeEnd: k('z') });
  c.take();
  const big = 'x'.repeat(400);
  w.write({ put: 'a', value: big }, { put: 'b', value: big }, { put: 'c', value: big }, { put: 'd', value: big });
  const got = c.take();
  const frag = got.filter((r) => r.watchId === 0n);
  const whole = got.filter((r) => r.watchId === 1n);
  assert.ok(frag.length > 1);
  assert.deepEqual(
    frag.map((r) => r.fragment),
    [...Array(frag.length - 1).fill(true), false],
  );
  assert.deepEqual(allEvs(frag), ['PUT a@2', 'PUT b@2', 'PUT c@2', 'PUT d@2']);
  assert.equal(whole.length, 1);
  assert.equal(whole[0]?.fragment, false);
});
