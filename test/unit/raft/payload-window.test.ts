/**
 * MemoryRaftStorage with a payload window: only the newest located payloads stay in memory,
 * the rest are read back through the port, and the slots already handed out never change.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MemoryRaftStorage } from '../../../server/raft/index.js';
import type { Entry } from '../../../server/raft/log-types.js';

interface At {
  readonly bytes: number;
  readonly key: string;
}

/** A fake disk: payloads by key, with a count of reads. */
function disk(): { files: Map<string, Buffer>; reads: number[]; read: (at: At) => Buffer } {
  const files = new Map<string, Buffer>();
  const reads: number[] = [];
  return {
    files,
    reads,
    read: (at) => {
      const data = files.get(at.key);
      if (data === undefined) throw new Error(`no payload ${at.key}`);
      reads.push(Number(at.key.split(':')[0]));
      return Buffer.from(data);
    },
  };
}

const payload = (index: number, term: number): Buffer => Buffer.alloc(100, `${index}/${term};`);

/** Entries [from, to] of `term`, written to the fake disk; returns them and their locations. */
function written(d: ReturnType<typeof disk>, from: number, to: number, term = 1): { ents: Entry[]; at: At[] } {
  const ents: Entry[] = [];
  const at: At[] = [];
  for (let i = from; i <= to; i++) {
    const data = payload(i, term);
    const key = `${i}:${term}`;
    d.files.set(key, data);
    ents.push({ index: i, term, type: 0, data });
    at.push({ bytes: data.length, key });
  }
  return { ents, at };
}

const ok = <T>(r: { ok: true; value: T } | { ok: false }): T => {
  assert.ok(r.ok);
  return r.value;
};

void test('only the newest payloads stay in memory; older ones are read back', () => {
  const d = disk();
  const s = new MemoryRaftStorage<At>({ bytes: 1000, read: d.read });
  for (let i = 1; i <= 100; i += 10) {
    const w = written(d, i, i + 9);
    s.append(w.ents, w.at);
    assert.ok(s.heldPayloadBytes() <= 1000, `held ${s.heldPayloadBytes()} bytes`);
  }
  assert.equal(s.heldPayloadBytes(), 1000);
  const recent = ok(s.entries(91, 101, Infinity));
  assert.deepEqual(d.reads, [], 'the newest ten come from memory');
  assert.deepEqual(recent.map((e) => e.data), Array.from({ length: 10 }, (_, k) => payload(91 + k, 1)));
  const all = ok(s.entries(1, 101, Infinity));
  assert.deepEqual(all.map((e) => e.index), Array.from({ length: 100 }, (_, k) => k + 1));
  all.forEach((e) => assert.deepEqual(e.data, payload(e.index, 1)));
  assert.deepEqual(d.reads, Array.from({ length: 90 }, (_, k) => k + 1));
});

void test('maxBytes counts the payloads that are on disk only', () => {
  const d = disk();
  const s = new MemoryRaftStorage<At>({ bytes: 0, read: d.read });
  const w = written(d, 1, 20);
  s.append(w.ents, w.at);
  assert.equal(s.heldPayloadBytes(), 0);
  const some = ok(s.entries(1, 21, 3 * 116));
  assert.deepEqual(some.map((e) => e.index), [1, 2, 3]);
  assert.deepEqual(d.reads, [1, 2, 3], 'nothing past the limit is read');
  assert.deepEqual(ok(s.entries(5, 21, 1)).map((e) => e.index), [5], 'always at least one entry');
});

void test('entries handed out keep their payloads after the window drops them', () => {
  const d = disk();
  const s = new MemoryRaftStorage<At>({ bytes: 200, read: d.read });
  const w = written(d, 1, 2);
  s.append(w.ents, w.at);
  const handed = ok(s.entries(1, 3, Infinity));
  const more = written(d, 3, 6);
  s.append(more.ents, more.at);
  assert.deepEqual(handed.map((e) => e.data), [payload(1, 1), payload(2, 1)]);
  assert.equal(ok(s.entries(1, 2, Infinity))[0]!.data.length, 100);
  assert.deepEqual(d.reads, [1]);
});

void test('a replaced tail forgets the old locations; compaction and snapshots keep the count right', () => {
  const d = disk();
  const s = new MemoryRaftStorage<At>({ bytes: 250, read: d.read });
  const w = written(d, 1, 10);
  s.append(w.ents, w.at);
  const next = written(d, 6, 8, 2);
  s.append(next.ents, next.at);
  assert.equal(s.lastIndex(), 8);
  const tail = ok(s.entries(5, 9, Infinity));
  assert.deepEqual(tail.map((e) => [e.index, e.term]), [[5, 1], [6, 2], [7, 2], [8, 2]]);
  tail.forEach((e) => assert.deepEqual(e.data, payload(e.index, e.term)));
  assert.ok(s.heldPayloadBytes() <= 250);
  ok(s.createSnapshot(7, { voters: [1n], learners: [] }, Buffer.alloc(0)));
  s.compact(7);
  assert.ok(s.heldPayloadBytes() <= 100, `held ${s.heldPayloadBytes()}`);
  assert.deepEqual(ok(s.entries(8, 9, Infinity))[0]!.data, payload(8, 2));
  ok(s.applySnapshot({ metadata: { index: 20, term: 3, confState: { voters: [1n], learners: [] } }, data: Buffer.alloc(0) }));
  assert.equal(s.heldPayloadBytes(), 0);
  const after = written(d, 21, 22, 3);
  s.append(after.ents, after.at);
  assert.equal(s.heldPayloadBytes(), 200);
});

void test('entries appended without data but with a location start on disk (a restart)', () => {
  const d = disk();
  const s = new MemoryRaftStorage<At>({ bytes: 1 << 20, read: d.read });
  const w = written(d, 1, 5);
  s.append(w.ents.map((e) => ({ ...e, data: Buffer.alloc(0) })), w.at);
  assert.equal(s.heldPayloadBytes(), 0);
  ok(s.entries(1, 6, Infinity)).forEach((e) => assert.deepEqual(e.data, payload(e.index, 1)));
  assert.deepEqual(d.reads, [1, 2, 3, 4, 5]);
  const more = written(d, 6, 7);
  s.append(more.ents, more.at);
  d.reads.length = 0;
  assert.equal(ok(s.entries(6, 8, Infinity)).length, 2);
  assert.deepEqual(d.reads, [], 'new entries are held');
});

void test('without a window every payload stays in memory, locations or not', () => {
  const d = disk();
  const s = new MemoryRaftStorage<At>();
  const w = written(d, 1, 50);
  s.append(w.ents, w.at);
  ok(s.entries(1, 51, Infinity)).forEach((e) => assert.deepEqual(e.data, payload(e.index, 1)));
  assert.deepEqual(d.reads, []);
});
