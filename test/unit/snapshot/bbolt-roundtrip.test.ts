/**
 * bbolt writer → reader round trips (fast-check): any ascending buckets come back identical,
 * and the file passes the structural check (bbolt-check.ts): every page reached exactly once,
 * balanced trees, branch keys = first child keys. Directed cases: empty buckets, values
 * spanning many overflow pages, enough keys for three tree levels, order violations refused,
 * a trailing SHA-256 ignored, a file that is not bbolt refused.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { openBolt, writeBolt, type BoltBucketSource } from '../../../server/snapshot/bbolt/index.js';
import { checkBolt } from './bbolt-check.js';

const dir = mkdtempSync(join(tmpdir(), 'bbolt-rt-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
const nextPath = (): string => join(dir, `f${++fileNo}.db`);

type Entries = readonly (readonly [Buffer, Buffer])[];
type Buckets = readonly { readonly name: string; readonly entries: Entries }[];

async function* slowly(entries: Entries): AsyncGenerator<readonly [Buffer, Buffer]> {
  for (const e of entries) yield e;
}

const sources = (buckets: Buckets): BoltBucketSource[] => buckets.map((b) => ({ name: b.name, entries: slowly(b.entries) }));

async function readAll(path: string): Promise<{ name: string; entries: [Buffer, Buffer][] }[]> {
  const r = await openBolt(path);
  try {
    const out: { name: string; entries: [Buffer, Buffer][] }[] = [];
    for (const name of r.bucketNames()) {
      const entries: [Buffer, Buffer][] = [];
      for await (const [k, v] of r.entries(name)) entries.push([Buffer.from(k), Buffer.from(v)]);
      out.push({ name, entries });
    }
    return out;
  } finally {
    await r.close();
  }
}

async function roundTrip(buckets: Buckets, pageSize?: number): Promise<ReturnType<typeof checkBolt>> {
  const path = nextPath();
  const { size } = await writeBolt(path, sources(buckets), { pageSize, sync: false });
  assert.equal(statSync(path).size, size);
  const back = await readAll(path);
  assert.deepEqual(back, buckets.map((b) => ({ name: b.name, entries: b.entries.map(([k, v]) => [k, v]) })));
  const check = checkBolt(readFileSync(path));
  assert.equal(size % check.pageSize, 0);
  assert.equal(size, check.highWater * check.pageSize);
  rmSync(path);
  return check;
}

const byKey = (a: readonly [Buffer, Buffer], b: readonly [Buffer, Buffer]): number => Buffer.compare(a[0], b[0]);
const key = fc.uint8Array({ minLength: 1, maxLength: 40 }).map((u) => Buffer.from(u));
const value = fc.oneof(
  { weight: 8, arbitrary: fc.uint8Array({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 3000, maxLength: 20000 }) },
).map((u) => Buffer.from(u));
const entries = fc
  .uniqueArray(fc.tuple(key, value), { maxLength: 400, selector: ([k]) => k.toString('hex') })
  .map((es) => [...es].sort(byKey) as Entries);
const buckets = fc
  .uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 16 }), entries), { maxLength: 8, selector: ([n]) => Buffer.from(n).toString('hex') })
  .map((bs) => [...bs].sort((a, b) => Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0]))).map(([name, es]) => ({ name, entries: es })) as Buckets);

void test('write → read gives the same buckets, and every page is accounted for (property)', async () => {
  await fc.assert(fc.asyncProperty(buckets, async (bs) => void (await roundTrip(bs))), { numRuns: 60 });
});

void test('other page sizes round-trip too (property)', async () => {
  await fc.assert(
    fc.asyncProperty(buckets, fc.constantFrom(1024, 8192, 16384), async (bs, pageSize) => {
      const check = await roundTrip(bs, pageSize);
      assert.equal(check.pageSize, pageSize);
    }),
    { numRuns: 20 },
  );
});

void test('empty buckets and no buckets at all', async () => {
  await roundTrip([]);
  const check = await roundTrip([{ name: 'alarm', entries: [] }, { name: 'key', entries: [] }]);
  assert.deepEqual([...check.depths], [['alarm', 0], ['key', 0]]);
});

void test('a value of 1 MiB spans overflow pages; small buckets stay inline, big ones get trees', async () => {
  const big = Buffer.alloc(1 << 20, 7);
  const check = await roundTrip([
    { name: 'a', entries: [[Buffer.from('k'), Buffer.from('v')]] },
    { name: 'b', entries: [[Buffer.from('big'), big]] },
    { name: 'c', entries: [[Buffer.from('a'), Buffer.from('x')], [Buffer.from('big'), big], [Buffer.from('small'), Buffer.from('x')]] },
  ]);
  assert.equal(check.depths.get('a'), 0);
  assert.equal(check.depths.get('b'), 1);
  assert.equal(check.depths.get('c'), 2);
});

void test('100k keys make a three-level tree', async () => {
  const es: [Buffer, Buffer][] = [];
  for (let i = 0; i < 100_000; i++) {
    const k = Buffer.alloc(17);
    k.writeBigUInt64BE(BigInt(i + 2), 0);
    k[8] = 0x5f;
    es.push([k, Buffer.from(`value-${i}`)]);
  }
  const check = await roundTrip([{ name: 'key', entries: es }]);
  assert.ok((check.depths.get('key') ?? 0) >= 3, `depth ${check.depths.get('key')}`);
});

void test('keys of 10 KiB: leaf and branch pages with overflow', async () => {
  const es = Array.from({ length: 50 }, (_, i) => [Buffer.alloc(10_240, 0x41 + (i % 26)), Buffer.from(`v${i}`)] as [Buffer, Buffer]);
  es.forEach(([k], i) => k.writeUInt16BE(i, 0));
  const check = await roundTrip([{ name: 'wide', entries: es }]);
  assert.ok((check.depths.get('wide') ?? 0) >= 3);
});

void test('keys out of order, duplicate keys and unordered bucket names are refused', async () => {
  const k = (s: string): Buffer => Buffer.from(s);
  for (const es of [
    [[k('b'), k('')], [k('a'), k('')]],
    [[k('a'), k('')], [k('a'), k('')]],
  ] as Entries[]) {
    await assert.rejects(writeBolt(nextPath(), sources([{ name: 'x', entries: es }]), { sync: false }), /strictly ascend/);
    const many = Array.from({ length: 300 }, (_, i) => [k(`m${String(i).padStart(4, '0')}`), k('v')] as const);
    await assert.rejects(writeBolt(nextPath(), sources([{ name: 'x', entries: [...many, ...es] }]), { sync: false }), /strictly ascend/);
  }
  await assert.rejects(writeBolt(nextPath(), sources([{ name: 'meta', entries: [] }, { name: 'key', entries: [] }]), { sync: false }), /strictly ascend/);
});

void test('the reader ignores a trailing SHA-256 and refuses files that are not bbolt', async () => {
  const path = nextPath();
  await writeBolt(path, sources([{ name: 'key', entries: [[Buffer.from('a'), Buffer.from('1')]] }]), { sync: false });
  appendFileSync(path, Buffer.alloc(32, 0xab));
  assert.deepEqual(await readAll(path), [{ name: 'key', entries: [[Buffer.from('a'), Buffer.from('1')]] }]);
  const junk = nextPath();
  writeFileSync(junk, Buffer.alloc(8192, 1));
  await assert.rejects(openBolt(junk), (e: Error) => /cannot open/.test(e.message) && /not a bbolt database/.test(String((e.cause as Error).message)));
});

void test('a reader chooses the meta page with the higher txid and falls back when one is damaged', async () => {
  const path = nextPath();
  await writeBolt(path, sources([{ name: 'key', entries: [[Buffer.from('a'), Buffer.from('1')]] }]), { sync: false });
  const bytes = readFileSync(path);
  bytes[4096 + 16 + 20] ^= 0xff; // meta 1 (txid 1): corrupt its root → checksum mismatch
  writeFileSync(path, bytes);
  assert.deepEqual((await readAll(path))[0].entries.length, 1);
  bytes[16 + 20] ^= 0xff; // meta 0 too
  writeFileSync(path, bytes);
  await assert.rejects(openBolt(path), (e: Error) => /checksum/.test(String((e.cause as Error).message)));
});
