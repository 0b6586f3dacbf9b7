/**
 * The read-replica payloads (frontend/replica-records.ts) come back exactly: a change's main
 * revision and events (puts with leases, big values and revisions beyond 2^32 — also beyond
 * 2^49, where the record decoder takes its generic path —, deletes, a "gone" event), revisions
 * and the context (64-bit ids, the auth flag); `sameContext` tells every field apart; and
 * decoded keys and values are copies: overwriting the payload afterwards (the turn buffer is
 * reused) leaves them as they were.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Event_EventType, type Event, type KeyValue } from '../../../proto/gen/etcd/kv.js';
import {
  decodeChange,
  decodeContext,
  decodeRevision,
  encodeChange,
  encodeContext,
  encodeRevision,
  sameContext,
  type ReplicaContext,
} from '../../../server/frontend/replica-records.js';
import { deletionKeyValue } from '../../../server/mvcc/kv-codec.js';

const b = (s: string): Buffer => Buffer.from(s);

function kv(key: Buffer, value: Buffer, over: Partial<KeyValue> = {}): KeyValue {
  return { key, value, createRevision: 2n, modRevision: 3n, version: 2n, lease: 0n, ...over };
}

const putEvent = (k: KeyValue, prev?: KeyValue): Event => ({ type: Event_EventType.PUT, kv: k, prevKv: prev });
const deleteEvent = (key: Buffer, rev: bigint, prev?: KeyValue): Event => ({ type: Event_EventType.DELETE, kv: deletionKeyValue(key, rev), prevKv: prev });

/** What decoding gives back for `e`: the same event without its previous record. */
const expected = (e: Event | undefined): Event | undefined => (e === undefined ? undefined : { type: e.type, kv: e.kv, prevKv: undefined });

function roundTrip(main: bigint, events: readonly (Event | undefined)[]): { main: bigint; events: (Event | undefined)[] } {
  const decoded = decodeChange(encodeChange(main, events));
  assert.equal(decoded.main, main);
  assert.deepEqual(decoded.events, events.map(expected));
  return decoded;
}

/** Whether two buffers share any byte of memory. */
function overlap(x: Buffer, y: Buffer): boolean {
  if (x.buffer !== y.buffer) return false;
  return x.byteOffset < y.byteOffset + y.length && y.byteOffset < x.byteOffset + x.length;
}

void describe('replica records', () => {
  void it('a change of puts and deletes comes back with its types, records and order (prevKv dropped)', () => {
    const a1 = kv(b('a'), b('one'));
    roundTrip(5n, [
      putEvent(kv(b('a'), b('two'), { createRevision: 2n, modRevision: 5n, version: 2n }), a1),
      deleteEvent(b('b'), 5n, kv(b('b'), b('gone soon'))),
      putEvent(kv(b('c'), Buffer.alloc(0), { createRevision: 5n, modRevision: 5n, version: 1n })),
      putEvent(kv(Buffer.from([0x00, 0xff, 0x80]), Buffer.from([0, 1, 2, 255]), { modRevision: 5n })),
      deleteEvent(Buffer.from([0xff]), 5n),
    ]);
  });

  void it('a change with no events, and one with every event gone', () => {
    roundTrip(7n, []);
    const payload = encodeChange(8n, [undefined, undefined]);
    assert.equal(payload.length, 12 + 2 * 5);
    roundTrip(8n, [undefined, undefined]);
  });

  void it('a "gone" event between others keeps its place (sub revisions stay right)', () => {
    const decoded = roundTrip(9n, [
      putEvent(kv(b('x'), b('1'), { modRevision: 9n })),
      undefined,
      deleteEvent(b('y'), 9n),
      undefined,
      putEvent(kv(b('z'), b('3'), { modRevision: 9n })),
    ]);
    assert.deepEqual(
      decoded.events.map((e) => (e === undefined ? 'gone' : `${e.type}:${e.kv!.key.toString()}`)),
      [`${Event_EventType.PUT}:x`, 'gone', `${Event_EventType.DELETE}:y`, 'gone', `${Event_EventType.PUT}:z`],
    );
  });

  void it('keeps lease ids, big values and revisions beyond 2^32 (and 2^49) exactly', () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i += 4093) big[i] = i % 251;
    const beyond32 = 2n ** 32n + 3n;
    const beyond49 = 2n ** 50n + 1n;
    const maxSafe = 2n ** 53n - 1n;
    roundTrip(beyond32, [
      putEvent(kv(b('lease small'), b('v'), { lease: 1n, createRevision: beyond32, modRevision: beyond32, version: 1n })),
      putEvent(kv(b('lease 2^62'), b('v'), { lease: 2n ** 62n + 7n, modRevision: beyond32 })),
      putEvent(kv(b('lease max'), b('v'), { lease: 2n ** 63n - 1n, modRevision: beyond32 })),
      putEvent(kv(b('big'), big, { modRevision: beyond32, version: 2n ** 40n })),
      deleteEvent(b('old'), beyond32),
    ]);
    roundTrip(beyond49, [putEvent(kv(b('k'), b('v'), { createRevision: beyond49, modRevision: beyond49, version: beyond49, lease: beyond49 }))]);
    roundTrip(maxSafe, [putEvent(kv(b('k'), b('v'), { createRevision: 1n, modRevision: maxSafe, version: 3n })), deleteEvent(b('d'), maxSafe)]);
    const decoded = decodeChange(encodeChange(beyond32, [putEvent(kv(b('big'), big))]));
    assert.ok(decoded.events[0]!.kv!.value.equals(big));
    assert.equal(typeof decoded.events[0]!.kv!.lease, 'bigint');
  });

  void it('refuses a payload cut inside an event', () => {
    const payload = encodeChange(4n, [putEvent(kv(b('key'), b('a value of some length'))), putEvent(kv(b('k2'), b('v2')))]);
    assert.throws(() => decodeChange(payload.subarray(0, payload.length - 3)), /cut change record: event 1 of 2/);
    assert.throws(() => decodeChange(payload.subarray(0, 20)), /cut change record: event 0 of 2/);
  });

  void it('decoded keys and values are copies: overwriting the payload leaves them unchanged', () => {
    const events = [
      putEvent(kv(b('small key'), b('small value'))),
      putEvent(kv(b('bigger'), Buffer.alloc(70_000, 0x61))),
      deleteEvent(b('deleted key'), 3n),
      undefined,
    ];
    const payload = encodeChange(3n, events);
    const decoded = decodeChange(payload);
    const kvs = decoded.events.filter((e): e is Event => e !== undefined).map((e) => e.kv!);
    assert.equal(kvs.length, 3);
    for (const k of kvs) {
      assert.ok(!overlap(k.key, payload), `key ${k.key.toString()} is not a view into the payload`);
      assert.ok(!overlap(k.value, payload), `value of ${k.key.toString()} is not a view into the payload`);
    }
    payload.fill(0xee);
    assert.deepEqual(decoded.events, events.map(expected));
    // The same when the payload is a view into a larger (turn) buffer at an odd offset.
    const turn = Buffer.alloc(payload.length + 101, 0x55);
    const fresh = encodeChange(3n, events);
    fresh.copy(turn, 37);
    const inTurn = decodeChange(turn.subarray(37, 37 + fresh.length));
    turn.fill(0x11);
    assert.deepEqual(inTurn.events, events.map(expected));
  });

  void it('revisions come back exactly (0, 1, beyond 2^32, 2^53 - 1)', () => {
    for (const r of [0n, 1n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 1n, 123_456_789_012n, 2n ** 53n - 1n]) {
      const payload = encodeRevision(r);
      assert.equal(payload.length, 8);
      assert.equal(decodeRevision(payload), r);
    }
  });

  void it('a context comes back exactly, with 64-bit ids and the auth, leader and learner flags', () => {
    const contexts: ReplicaContext[] = [
      { clusterId: 0n, memberId: 0n, raftTerm: 0n, authEnabled: false, hasLeader: false, learner: false },
      { clusterId: 2n ** 64n - 1n, memberId: 0x8000_0000_0000_0001n, raftTerm: 2n ** 53n + 1n, authEnabled: true, hasLeader: true, learner: true },
      { clusterId: 0xcdef_0123_4567_89abn, memberId: 0x1234_5678_9abc_def0n, raftTerm: 7n, authEnabled: false, hasLeader: true, learner: false },
      { clusterId: 5n, memberId: 6n, raftTerm: 7n, authEnabled: true, hasLeader: false, learner: true },
    ];
    for (const c of contexts) {
      const payload = encodeContext(c);
      assert.equal(payload.length, 25);
      const back = decodeContext(payload);
      assert.deepEqual(back, c);
      assert.ok(sameContext(back, c));
      payload.fill(0);
      assert.deepEqual(back, c, 'nothing refers to the payload');
    }
  });

  void it('sameContext tells every field apart, and an unknown context from any', () => {
    const c: ReplicaContext = { clusterId: 1n, memberId: 2n, raftTerm: 3n, authEnabled: false, hasLeader: true, learner: false };
    assert.equal(sameContext(c, { ...c }), true);
    assert.equal(sameContext(undefined, c), false);
    assert.equal(sameContext({ ...c, clusterId: 9n }, c), false);
    assert.equal(sameContext({ ...c, memberId: 9n }, c), false);
    assert.equal(sameContext({ ...c, raftTerm: 4n }, c), false);
    assert.equal(sameContext({ ...c, authEnabled: true }, c), false);
    assert.equal(sameContext({ ...c, hasLeader: false }, c), false);
    assert.equal(sameContext({ ...c, learner: true }, c), false);
    const high = { clusterId: 2n ** 64n - 1n, memberId: 2n ** 63n, raftTerm: 2n ** 64n - 2n, authEnabled: true, hasLeader: false, learner: false };
    assert.equal(sameContext(decodeContext(encodeContext(high)), high), true);
    assert.equal(sameContext(decodeContext(encodeContext(high)), { ...high, raftTerm: 2n ** 64n - 1n }), false);
  });
});
