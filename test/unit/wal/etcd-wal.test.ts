/**
 * etcd 3.4's WAL read for an import (server/wal/etcd/) and the import plan
 * (server/bootstrap/etcd-import/plan.ts): a log shaped as `etcdctl snapshot restore` writes it,
 * built here from the format facts (FORMAT.md §"etcd's WAL"), decodes to its ids, hard state and
 * member list; damage and logs kvstore cannot take are refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { planImport } from '../../../server/bootstrap/etcd-import/index.js';
import { Crc32c } from '../../../server/storage/crc32c.js';
import { decodeEtcdWal, type EtcdWal } from '../../../server/wal/etcd/index.js';

function varint(v: bigint): Buffer {
  const out: number[] = [];
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? b | 0x80 : b);
  } while (v > 0n);
  return Buffer.from(out);
}

type Field = readonly [number, bigint | Buffer];
function message(fields: readonly Field[]): Buffer {
  return Buffer.concat(
    fields.map(([n, v]) =>
      typeof v === 'bigint' ? Buffer.concat([varint(BigInt(n << 3)), varint(v)]) : Buffer.concat([varint(BigInt((n << 3) | 2)), varint(BigInt(v.length)), v]),
    ),
  );
}

/** A segment of etcd-framed records with chained CRC-32C, then `tail` zero bytes. */
function segment(records: readonly (readonly [number, Buffer])[], tail = 4096): Buffer {
  const parts: Buffer[] = [];
  const crc = new Crc32c();
  for (const [type, data] of [[4, Buffer.alloc(0)] as const, ...records]) {
    const sum = type === 4 ? 0 : crc.update(data).digest();
    const rec = message([[1, BigInt(type)], [2, BigInt(sum)], ...(data.length > 0 ? ([[3, data]] as Field[]) : [])]);
    const pad = (8 - (rec.length % 8)) % 8;
    const word = Buffer.alloc(8);
    word.writeBigUInt64LE(BigInt(rec.length) | (pad > 0 ? (BigInt(0x80 | pad) << 56n) : 0n));
    parts.push(word, rec, Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(tail));
  return Buffer.concat(parts);
}

const M1 = 0xa0b1c2d3e4f50617n;
const CLUSTER = 0x1122334455667788n;

function addNode(index: number, id: bigint, name: string, type = 0n): readonly [number, Buffer] {
  const ctx = Buffer.from(`{"id":${id},"peerURLs":["http://${name}:2380"],"name":"${name}"}`);
  const cc = message([[2, type], [3, id], [4, ctx]]);
  return [2, message([[1, 1n], [2, 1n], [3, BigInt(index)], [4, cc]])];
}

function restored(extra: readonly (readonly [number, Buffer])[] = [], commit = 1n): Buffer {
  return segment([
    [1, message([[1, M1], [2, CLUSTER]])],
    [5, Buffer.alloc(0)],
    addNode(1, M1, 'm1'),
    ...extra,
    [3, message([[1, 1n], [2, M1], [3, commit]])],
    [5, message([[1, commit], [2, 1n]])],
  ]);
}

function decoded(bytes: Buffer): EtcdWal {
  const out = decodeEtcdWal([{ name: '0000000000000000-0000000000000000.wal', bytes }]);
  assert.ok(out.ok, out.ok ? '' : out.reason);
  return out.wal;
}

void test('a restore-shaped log: exact 64-bit ids, hard state, marker, a member list from the founding entry', () => {
  const wal = decoded(restored());
  assert.equal(wal.memberId, M1);
  assert.equal(wal.clusterId, CLUSTER);
  assert.deepEqual(wal.hardState, { term: 1, vote: M1, commit: 1 });
  assert.deepEqual(wal.marker, { index: 1, term: 1 });
  const planned = planImport(wal, 9n);
  assert.ok(planned.ok);
  assert.deepEqual(planned.plan.members, [{ id: M1, name: 'm1', peerURLs: ['http://m1:2380'], clientURLs: [], isLearner: false }]);
  assert.deepEqual(planned.plan.marker, { index: 1, term: 1, confState: { voters: [M1], learners: [] } });
  assert.equal(planned.plan.consistentIndex, 1n);
});

void test('learners, promotion and removal replay in order', () => {
  const m2 = 5n;
  const m3 = 7n;
  const wal = decoded(restored([addNode(2, m2, 'm2', 3n), addNode(3, m3, 'm3', 3n), addNode(4, m2, 'm2', 0n), [2, message([[1, 1n], [2, 1n], [3, 5n], [4, message([[2, 1n], [3, m3]])]])]], 5n));
  const planned = planImport(wal, 0n);
  assert.ok(planned.ok);
  assert.deepEqual(planned.plan.members.map((m) => [m.id, m.isLearner]), [[m2, false], [M1, false]]);
  assert.deepEqual(planned.plan.removed, [m3]);
});

void test('a torn last record is ignored; a bad CRC is corruption', () => {
  const good = restored([], 1n);
  const end = good.length - 4096;
  const torn = Buffer.concat([good.subarray(0, end), Buffer.from([0x40, 0, 0, 0, 0, 0, 0, 0]), Buffer.alloc(8, 1)]);
  assert.ok(decodeEtcdWal([{ name: 's', bytes: torn }]).ok);
  const bad = Buffer.from(good);
  bad[bad.indexOf(Buffer.from('"name":"m1"')) + 9] ^= 1;
  const out = decodeEtcdWal([{ name: 's', bytes: bad }]);
  assert.ok(!out.ok && /crc mismatch/.test(out.reason));
});

void test('refused: a log not starting at 1, entries after commit, committed requests not applied', () => {
  const late = decoded(segment([[1, message([[1, M1], [2, CLUSTER]])], [2, message([[2, 1n], [3, 4n]])], [3, message([[1, 1n], [3, 4n]])]]));
  const notFromOne = planImport(late, 4n);
  assert.ok(!notFromOne.ok && /from index 1/.test(notFromOne.reason));
  const uncommitted = planImport(decoded(restored([[2, message([[2, 1n], [3, 2n]])]], 1n)), 0n);
  assert.ok(!uncommitted.ok && /after its commit index/.test(uncommitted.reason));
  const request = [2, message([[2, 1n], [3, 2n], [4, Buffer.from('x')]])] as const;
  const unapplied = planImport(decoded(restored([request], 2n)), 1n);
  assert.ok(!unapplied.ok && /not applied/.test(unapplied.reason));
  assert.ok(planImport(decoded(restored([request], 2n)), 2n).ok);
});
