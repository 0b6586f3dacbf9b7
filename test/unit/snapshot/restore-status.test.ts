/**
 * snapshot status, pure parts: CRC-32C check values, the status of a bucket set (hash order,
 * revision, key count), bbolt meta-page size, and the printed forms.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Crc32c } from '../../../server/storage/crc32c.js';
import { dbStatus, type BucketSource } from '../../../server/snapshot/restore/db-status.js';
import { inspectPages } from '../../../server/snapshot/restore/bolt-size.js';
import { formatDbStatus } from '../../../ctl/commands/snapshot/status.js';

function fake(buckets: Record<string, [Buffer, Buffer][]>): BucketSource {
  return {
    bucketNames: () => Object.keys(buckets).sort(),
    entries: async function* (name: string) {
      yield* buckets[name] ?? [];
    },
  };
}

function revKey(main: bigint, sub: bigint, tomb = false): Buffer {
  const b = Buffer.alloc(17);
  b.writeBigUInt64BE(main, 0);
  b[8] = 0x5f;
  b.writeBigUInt64BE(sub, 9);
  return tomb ? Buffer.concat([b, Buffer.from('t')]) : b;
}

void test('CRC-32C check values', () => {
  assert.equal(new Crc32c().update(Buffer.from('123456789')).digest(), 0xe3069283);
  assert.equal(new Crc32c().digest(), 0);
  assert.equal(new Crc32c().update(Buffer.from('1234')).update(Buffer.from('56789')).digest(), 0xe3069283);
});

void test('status hashes bucket names, keys and values in order; revision is the last key of `key`', async () => {
  const db = fake({
    meta: [[Buffer.from('consistent_index'), Buffer.from('0000000000000007', 'hex')]],
    key: [
      [revKey(2n, 0n), Buffer.from('a')],
      [revKey(5n, 1n, true), Buffer.from('b')],
    ],
    lease: [],
  });
  const s = await dbStatus(db, 20480);
  const expected = new Crc32c();
  for (const part of ['key', revKey(2n, 0n), 'a', revKey(5n, 1n, true), 'b', 'lease', 'meta', 'consistent_index', Buffer.from('0000000000000007', 'hex')]) {
    expected.update(typeof part === 'string' ? Buffer.from(part) : part);
  }
  assert.deepEqual(s, { hash: expected.digest(), revision: 5n, totalKey: 3, totalSize: 20480 });
  assert.equal((await dbStatus(fake({}), 0)).revision, 0n);
});

function metaPage(pageSize: number, pgid: bigint, txid: bigint, corrupt = false): Buffer {
  const b = Buffer.alloc(80);
  b.writeUInt32LE(0xed0cdaed, 16);
  b.writeUInt32LE(2, 20);
  b.writeUInt32LE(pageSize, 24);
  b.writeBigUInt64LE(pgid, 56);
  b.writeBigUInt64LE(txid, 64);
  let h = 0xcbf29ce484222325n;
  for (const x of b.subarray(16, 72)) h = ((h ^ BigInt(x)) * 0x100000001b3n) & ((1n << 64n) - 1n);
  b.writeBigUInt64LE(corrupt ? h ^ 1n : h, 72);
  return b;
}

void test('bbolt size: the valid meta with the larger txid gives pgid × page size; bbolt\'s open errors', () => {
  const size = (a: Buffer, b: Buffer, fileSize = 1 << 20) => {
    const r = inspectPages(a, b, fileSize);
    return r.ok ? r.size : r.problem;
  };
  assert.equal(size(metaPage(4096, 5n, 10n), metaPage(4096, 4n, 9n)), 20480);
  assert.equal(size(metaPage(4096, 5n, 10n), metaPage(4096, 7n, 11n)), 28672);
  assert.equal(size(metaPage(4096, 5n, 10n), metaPage(4096, 7n, 11n, true)), 20480);
  assert.equal(size(metaPage(4096, 5n, 10n, true), metaPage(4096, 7n, 11n)), 28672);
  assert.equal(size(Buffer.alloc(80), Buffer.alloc(80)), 'invalid database');
  assert.equal(size(metaPage(4096, 5n, 10n, true), metaPage(4096, 7n, 11n, true)), 'checksum error');
  assert.equal(size(metaPage(4096, 5n, 10n), metaPage(4096, 4n, 9n), 4096), 'file size too small');
  assert.equal(size(Buffer.alloc(80), Buffer.alloc(80), 4096), 'file size too small');
});

void test('printed as etcdctl 3.4 prints it', () => {
  const s = { hash: 1674655394, revision: 6n, totalKey: 12, totalSize: 20480 };
  assert.equal(formatDbStatus('simple', s), '63d136a2, 6, 12, 20 kB\n');
  assert.equal(formatDbStatus('json', s), '{"hash":1674655394,"revision":6,"totalKey":12,"totalSize":20480}\n');
  assert.equal(formatDbStatus('fields', s), '"Hash" : 1674655394\n"Revision" : 6\n"Keys" : 12\n"Size" : 20480\n');
  assert.equal(
    formatDbStatus('table', s),
    [
      '+----------+----------+------------+------------+',
      '|   HASH   | REVISION | TOTAL KEYS | TOTAL SIZE |',
      '+----------+----------+------------+------------+',
      '| 63d136a2 |        6 |         12 |      20 kB |',
      '+----------+----------+------------+------------+',
      '',
    ].join('\n'),
  );
  assert.equal(formatDbStatus('protobuf', s), undefined);
});
