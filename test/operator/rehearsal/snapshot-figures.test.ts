// The figures a member restored from a snapshot file must serve, read from bbolt files built
// here: live keys (a key whose newest record is a tombstone is not counted), the revision (the
// newest record, never below the finished compaction revision nor 1), and a file that is not a
// database.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBolt } from '../../../server/snapshot/bbolt/index.js';
import { encodeKeyValue, encodeTombstone } from '../../../server/mvcc/kv-codec.js';
import { encodeRevisionKey, revisionBound } from '../../../server/mvcc/revision.js';
import { snapshotFigures } from '../../../operator/runtime/rehearsal/snapshot-figures.js';

const dir = mkdtempSync(join(tmpdir(), 'snapshot-figures-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

type Rec = readonly [main: number, key: string, deleted?: boolean];

async function file(records: readonly Rec[], compacted?: number): Promise<string> {
  const path = join(dir, `f${n++}.db`);
  const entries = async function* (): AsyncGenerator<readonly [Buffer, Buffer]> {
    for (const [main, key, deleted] of records) {
      const k = Buffer.from(key);
      const value = deleted === true ? encodeTombstone(k) : encodeKeyValue({ key: k, createRevision: BigInt(main), modRevision: BigInt(main), version: 1n, value: Buffer.from('v'), lease: 0n });
      yield [encodeRevisionKey(BigInt(main), 0, deleted === true), value];
    }
  };
  const meta = async function* (): AsyncGenerator<readonly [Buffer, Buffer]> {
    if (compacted !== undefined) yield [Buffer.from('finishedCompactRev'), revisionBound(BigInt(compacted))];
  };
  await writeBolt(path, [{ name: 'key', entries: entries() }, { name: 'meta', entries: meta() }], { sync: false });
  return path;
}

const cases: readonly { name: string; records: readonly Rec[]; compacted?: number; revision: number; keys: number }[] = [
  { name: 'puts only', records: [[2, 'a'], [3, 'b'], [4, 'a']], revision: 4, keys: 2 },
  { name: 'a key deleted last is not live', records: [[2, 'a'], [3, 'b'], [4, 'a', true]], revision: 4, keys: 1 },
  { name: 'deleted then put again is live', records: [[2, 'a'], [3, 'a', true], [4, 'a']], revision: 4, keys: 1 },
  { name: 'a compaction removed the newest tombstones', records: [[2, 'a']], compacted: 9, revision: 9, keys: 1 },
  { name: 'an empty store serves revision 1', records: [], revision: 1, keys: 0 },
];

for (const c of cases) {
  void test(`snapshot figures: ${c.name} → revision ${c.revision}, ${c.keys} keys`, async () => {
    const r = await snapshotFigures(await file(c.records, c.compacted));
    assert.deepEqual(r, { ok: true, value: { revision: c.revision, keys: c.keys } });
  });
}

void test('snapshot figures: a file that is not a database is a failure value', async () => {
  const path = join(dir, 'garbage.db');
  writeFileSync(path, Buffer.alloc(8192, 7));
  const r = await snapshotFigures(path);
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.error, /not a readable database/);
});
