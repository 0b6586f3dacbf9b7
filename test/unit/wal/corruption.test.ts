/**
 * Damage that a crash cannot explain is reported, never skipped: a bad CRC or header followed by
 * more data, a damaged complete last write, a damaged older segment, a missing segment, a broken
 * CRC chain between segments.
 */
import assert from 'node:assert/strict';
import { copyFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';

import { WalError } from '../../../server/wal/index.js';
import { editFile, entries, entry, hardState, open, segmentFiles, tempWalDir } from './helpers.js';

/** Five single-entry saves; returns the segment path and where each save's write starts. */
async function fiveSaves(dir: string): Promise<{ file: string; starts: number[]; end: number }> {
  const { wal } = await open(dir, { preallocateBytes: 0 });
  const file = join(dir, (await segmentFiles(dir))[0] ?? '');
  const starts: number[] = [];
  for (let i = 1; i <= 5; i++) {
    starts.push((await stat(file)).size);
    await wal.save([entry(i, 1, `payload-${i}`)], hardState(1, 1, i));
  }
  await wal.close();
  return { file, starts, end: (await stat(file)).size };
}

function isCorrupt(match: RegExp) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof WalError, `expected WalError, got ${String(e)}`);
    assert.equal(e.problem.kind, 'Corrupt');
    assert.match(e.message, match);
    return true;
  };
}

void test('a flipped data byte in the middle of the log is corruption', async (t) => {
  const dir = await tempWalDir(t);
  const { file, starts } = await fiveSaves(dir);
  const second = starts[1] ?? 0;
  await editFile(file, (b) => {
    b[second + 24 + 16 + 5] ^= 0x40;
    return b;
  });
  await assert.rejects(open(dir), isCorrupt(new RegExp(`offset ${second}.*crc mismatch.*later write follows`)));
});

void test('a damaged record header in the middle of the log is corruption', async (t) => {
  const dir = await tempWalDir(t);
  const { file, starts } = await fiveSaves(dir);
  const third = starts[2] ?? 0;
  await editFile(file, (b) => {
    b[third + 24] = 0xff;
    return b;
  });
  await assert.rejects(open(dir), isCorrupt(/header crc mismatch.*later write follows/));
});

void test('a zeroed write in the middle of the log is corruption', async (t) => {
  const dir = await tempWalDir(t);
  const { file, starts } = await fiveSaves(dir);
  await editFile(file, (b) => b.fill(0, starts[1], starts[2]));
  await assert.rejects(open(dir), isCorrupt(/later write follows/));
});

void test('a bit flip in a complete last write is corruption, not a torn tail', async (t) => {
  const dir = await tempWalDir(t);
  const { file, starts, end } = await fiveSaves(dir);
  const last = starts[4] ?? 0;
  assert.equal(Math.floor(last / 512), Math.floor((end - 1) / 512), 'fixture: the last write sits in one sector');
  await editFile(file, (b) => {
    b[last + 24 + 16 + 3] ^= 0x01;
    return b;
  });
  await assert.rejects(open(dir), isCorrupt(/not a torn write/));
});

void test('damage in a segment that is not the last is corruption', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { segmentBytes: 1024, preallocateBytes: 0 });
  for (let i = 1; i <= 60; i++) await wal.save(entries(i, i));
  await wal.close();
  const files = await segmentFiles(dir);
  assert.ok(files.length >= 3);
  const first = join(dir, files[0] ?? '');
  const size = (await stat(first)).size;
  await editFile(first, (b) => b.fill(0, size - 40));
  await assert.rejects(open(dir), isCorrupt(/not the last/));
});

void test('a missing segment is corruption', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { segmentBytes: 1024 });
  for (let i = 1; i <= 60; i++) await wal.save(entries(i, i));
  await wal.close();
  const files = await segmentFiles(dir);
  assert.ok(files.length >= 3);
  await rm(join(dir, files[1] ?? ''));
  await assert.rejects(open(dir), isCorrupt(/segment is missing/));
});

void test('a segment that does not continue the CRC chain of the previous one is corruption', async (t) => {
  const dir = await tempWalDir(t);
  const other = `${dir}-other`;
  for (const [d, first] of [
    [dir, 'a'],
    [other, 'b'],
  ] as const) {
    const { wal } = await open(d, { segmentBytes: 1024 });
    await wal.save([entry(1, 1, first)]);
    for (let i = 2; i <= 60; i++) await wal.save(entries(i, i));
    await wal.close();
  }
  const files = await segmentFiles(dir);
  assert.deepEqual(await segmentFiles(other), files);
  await copyFile(join(other, files[1] ?? ''), join(dir, files[1] ?? ''));
  await assert.rejects(open(dir), isCorrupt(/crc chain broken/));
});

void test('invalid appends are refused and leave the log usable', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir);
  await wal.save(entries(1, 3));
  const invalid = (e: unknown): boolean => e instanceof WalError && e.problem.kind === 'InvalidAppend';
  await assert.rejects(wal.save(entries(5, 5)), invalid);
  await assert.rejects(wal.save([entry(4), entry(6)]), invalid);
  await assert.rejects(wal.save([{ term: -1, index: 4, type: 0, data: Buffer.alloc(0) }]), invalid);
  await wal.save(entries(4, 4));
  await wal.close();
  const again = await open(dir);
  assert.equal(again.contents.entries.length, 4);
  await again.wal.close();
});
