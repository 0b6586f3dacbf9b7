/**
 * Torn tail: a crash can leave the last write short or with unwritten (zero) sectors. Opening
 * drops exactly that write, never an earlier one, reports it, and the log continues normally.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';

import { entries, entry, hardState, indexes, open, range, segmentFiles, tempWalDir } from './helpers.js';

interface Fixture {
  readonly root: string;
  readonly name: string;
  /** Segment bytes with five saves and then the last save (entry 6 + hard state). */
  readonly bytes: Buffer;
  /** Where the last save's write starts and ends. */
  readonly start: number;
  readonly end: number;
}

async function fixture(dir: string, lastData: string): Promise<Fixture> {
  const { wal } = await open(dir, { preallocateBytes: 0 });
  for (let i = 1; i <= 5; i++) await wal.save(entries(i, i), hardState(1, 1, i - 1));
  const name = (await segmentFiles(dir))[0] ?? '';
  const start = (await stat(join(dir, name))).size;
  await wal.save([entry(6, 1, lastData)], hardState(1, 1, 5));
  await wal.close();
  const bytes = await readFile(join(dir, name));
  return { root: dirname(dirname(dir)), name, bytes, start, end: bytes.length };
}

/** Writes `bytes` as the only segment of a new WAL directory and returns that directory. */
async function walWith(f: Fixture, label: string, bytes: Buffer): Promise<string> {
  const dir = join(f.root, label, 'wal');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, f.name), bytes);
  return dir;
}

async function expectTorn(dir: string, f: Fixture, what: string): Promise<void> {
  const { wal, contents } = await open(dir);
  assert.deepEqual(indexes(contents.entries), range(1, 5), what);
  assert.deepEqual(contents.hardState, hardState(1, 1, 4), what);
  assert.equal(contents.tailRepair?.offset, f.start, what);
  assert.equal(contents.tailRepair?.segment, f.name, what);
  await wal.save([entry(6, 2, 'after repair')], hardState(2, 1, 5));
  await wal.close();
  const again = await open(dir);
  assert.deepEqual(indexes(again.contents.entries), range(1, 6), what);
  assert.equal(again.contents.entries[5]?.term, 2, what);
  assert.equal(again.contents.tailRepair, undefined, what);
  await again.wal.close();
}

void test('the file cut at every byte offset of the last write: earlier saves survive, no error', async (t) => {
  const f = await fixture(await tempWalDir(t), 'the last entry, which a crash interrupts');
  assert.ok(f.end - f.start > 100);
  for (let cut = f.start; cut <= f.end; cut++) {
    const dir = await walWith(f, `cut-${cut}`, f.bytes.subarray(0, cut));
    if (cut === f.start || cut === f.end) {
      const { wal, contents } = await open(dir);
      assert.deepEqual(indexes(contents.entries), range(1, cut === f.end ? 6 : 5), `cut at ${cut}`);
      assert.equal(contents.tailRepair, undefined);
      await wal.close();
    } else {
      await expectTorn(dir, f, `cut at ${cut}`);
    }
  }
});

void test('unwritten sectors in the last write are a torn tail', async (t) => {
  const f = await fixture(await tempWalDir(t), 'x'.repeat(2000));
  const firstBoundary = Math.ceil((f.start + 1) / 512) * 512;
  for (let s = firstBoundary; s < f.end; s += 512) {
    const fromHere = Buffer.from(f.bytes);
    fromHere.fill(0, s);
    await expectTorn(await walWith(f, `zero-from-${s}`, fromHere), f, `zero from sector ${s}`);
    const oneSector = Buffer.from(f.bytes);
    oneSector.fill(0, s, Math.min(s + 512, f.end));
    await expectTorn(await walWith(f, `zero-sector-${s}`, oneSector), f, `zero sector ${s}`);
  }
  const headerLost = Buffer.from(f.bytes);
  headerLost.fill(0, f.start, firstBoundary);
  await expectTorn(await walWith(f, 'first-sector-lost', headerLost), f, 'first sector of the write lost');
});

void test('a torn write followed by preallocated zeros', async (t) => {
  const f = await fixture(await tempWalDir(t), 'y'.repeat(1500));
  const lost = Math.ceil((f.start + 100) / 512) * 512;
  const withZeros = Buffer.concat([f.bytes.subarray(0, lost), Buffer.alloc(f.end - lost + 4096)]);
  await expectTorn(await walWith(f, 'lost-then-zeros', withZeros), f, 'sectors lost, preallocated zeros after');
});

void test('zeros appended after a complete log are not a repair', async (t) => {
  const f = await fixture(await tempWalDir(t), 'complete');
  const dir = await walWith(f, 'zeros', Buffer.concat([f.bytes, Buffer.alloc(10_000)]));
  const { wal, contents } = await open(dir);
  assert.deepEqual(indexes(contents.entries), range(1, 6));
  assert.equal(contents.tailRepair, undefined);
  await wal.close();
  assert.equal(basename(dir), 'wal');
});

void test('a torn tail in the last of several segments', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { segmentBytes: 1024 });
  for (let i = 1; i <= 40; i++) await wal.save([entry(i)], hardState(1, 1, i));
  await wal.close();
  const files = await segmentFiles(dir);
  assert.ok(files.length >= 3);
  const last = join(dir, files[files.length - 1] ?? '');
  const bytes = await readFile(last);
  const end = endOfData(bytes);
  await writeFile(last, bytes.subarray(0, end - 5));
  const again = await open(dir, { segmentBytes: 1024 });
  assert.deepEqual(indexes(again.contents.entries), range(1, 39));
  assert.deepEqual(again.contents.hardState, hardState(1, 1, 39));
  assert.equal(again.contents.tailRepair?.segment, files[files.length - 1]);
  for (let i = 40; i <= 80; i++) await again.wal.save([entry(i, 2)], hardState(2, 1, i));
  await again.wal.close();
  const third = await open(dir);
  assert.deepEqual(indexes(third.contents.entries), range(1, 80));
  await third.wal.close();
});

/** Offset just past the last non-zero byte: the end of the data before the preallocated zeros. */
function endOfData(bytes: Buffer): number {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return end;
}
