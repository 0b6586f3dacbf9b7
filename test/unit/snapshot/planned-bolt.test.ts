/**
 * A bbolt file laid out from sizes before its data is read (bbolt/planned-bolt.ts) and the
 * streamed snapshot image built on it (streamed-snapshot.ts): for data sets of many shapes —
 * empty, a `key` bucket small enough to be inline, values over a page (overflow), tombstones'
 * longer keys, enough records for several branch levels — the streamed bytes are the file
 * writeBolt writes for the same view; sizes that do not match the data end the image with an
 * error before its checksum and release the view.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { writeBolt } from '../../../server/snapshot/bbolt/index.js';
import { sizedTreeLayout } from '../../../server/snapshot/bbolt/tree-layout.js';
import { backendBuckets } from '../../../server/snapshot/stream.js';
import type { PinnedSnapshot } from '../../../server/mvcc/types.js';
import { StreamedSnapshot } from '../../../server/snapshot/streamed-snapshot.js';
import type { Backend } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { checkBolt } from './bbolt-check.js';
import { pinByScan, sizesOf } from './pinned-by-scan.js';
import { fillShaped, type Shape } from './shaped-backend.js';

const root = mkdtempSync(join(tmpdir(), 'planned-bolt-'));
after(() => rmSync(root, { recursive: true, force: true }));
let fileNo = 0;

async function memoryBackendOf(shape: Shape): Promise<Backend> {
  const backend = createMemoryBackend();
  await fillShaped(backend, shape);
  return backend;
}

async function readAll(image: StreamedSnapshot): Promise<Buffer> {
  const parts: Buffer[] = [];
  while (image.remaining > 0) {
    // odd part sizes: pieces are split across reads
    const part = Buffer.alloc(Math.min(image.remaining, 7 * 4096 + 123));
    await image.readInto([part]);
    parts.push(part);
  }
  return Buffer.concat(parts);
}

async function writtenFile(backend: Backend): Promise<Buffer> {
  const file = join(root, `f${++fileNo}.db`);
  const view = await backend.snapshot();
  try {
    await writeBolt(file, backendBuckets(view), { sync: false });
  } finally {
    await view.close();
  }
  return readFileSync(file);
}

const shapes: readonly Shape[] = [
  { records: 0, maxValue: 10, seed: 1 },
  { records: 3, maxValue: 20, seed: 2 },
  { records: 40, maxValue: 300, seed: 3 },
  { records: 1000, maxValue: 300, seed: 4 },
  { records: 25_000, maxValue: 200, seed: 5 },
  { records: 3000, maxValue: 5000, seed: 6 },
];

for (const shape of shapes) {
  void test(`streamed image = the written file: ${shape.records} records, values up to ${shape.maxValue} B`, async () => {
    const backend = await memoryBackendOf(shape);
    const image = await StreamedSnapshot.start(pinByScan(backend));
    const streamed = await readAll(image);
    await image.close();
    const written = await writtenFile(backend);
    assert.equal(streamed.length, image.size);
    assert.ok(streamed.equals(written), `the ${streamed.length}-byte stream differs from the ${written.length}-byte file`);
    checkBolt(streamed);
  });
}

void test('sized layout: page counts and roots of the trees the writer builds (checked through the meta pages above)', () => {
  const one = sizedTreeLayout({ length: 0, keyLength: () => 17, valueLength: () => 0 }, 4096, 2);
  assert.deepEqual(one, { pages: 1, root: 2 }, 'an empty tree is one leaf');
  const big = sizedTreeLayout({ length: 1, keyLength: () => 17, valueLength: () => 10_000 }, 4096, 5);
  assert.deepEqual(big, { pages: 3, root: 5 }, 'one element over two pages: one leaf with overflow');
});

async function pinWrongSize(backend: Backend, state: { open: number }): Promise<PinnedSnapshot> {
  const view = await backend.snapshot();
  state.open++;
  const records = await sizesOf(view);
  const valueLength = Uint32Array.from(records.valueLength);
  valueLength[records.length - 5]! += 1;
  return {
    view: { get: view.get.bind(view), iterate: view.iterate.bind(view), batches: view.batches.bind(view), close: () => ((state.open -= 1), view.close()) },
    records: { ...records, valueLength },
  };
}

void test('a record whose size is not the planned one ends the image with an error before its checksum', async () => {
  const backend = await memoryBackendOf({ records: 5000, maxValue: 300, seed: 9 });
  const state = { open: 0 };
  const image = await StreamedSnapshot.start(() => pinWrongSize(backend, state));
  await assert.rejects(readAll(image), /element \d+ of bucket key is/);
  assert.throws(() => image.digest(), /unread/);
  await image.close();
  assert.equal(state.open, 0, 'view released');
});

void test('one record more or fewer than planned is an error too', async () => {
  const backend = await memoryBackendOf({ records: 2000, maxValue: 300, seed: 10 });
  for (const delta of [-1, 1]) {
    const image = await StreamedSnapshot.start(async () => {
      const view = await backend.snapshot();
      const r = await sizesOf(view);
      const n = r.length + delta;
      const grown = <T extends Float64Array | Uint32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
        const out = make(n);
        out.set(a.subarray(0, Math.min(n, r.length)));
        return out;
      };
      const records = {
        length: n,
        main: grown(r.main, (k) => new Float64Array(k)),
        sub: grown(r.sub, (k) => new Uint32Array(k)),
        tombstone: grown(r.tombstone, (k) => new Uint8Array(k)),
        valueLength: grown(r.valueLength, (k) => new Uint32Array(k)),
      };
      return { view, records };
    });
    await assert.rejects(readAll(image), delta < 0 ? /more than the \d+ elements planned/ : /has \d+ elements, planned \d+/);
    await image.close();
  }
});
