/**
 * The bbolt reader on a snapshot file written by the real etcd 3.4.23 (testdata/bbolt-etcd-3.4.db,
 * made with `etcdctl snapshot save` after: put foo bar; lease grant 3600 → 499fa1fdacf15d06;
 * put leased v --lease; put foo baz; del foo; put big <10000 × 'B'>; put k/001 … k/300 one by one.
 * `etcdctl snapshot status` reported revision 306, 310 keys, 94208 bytes; the file carries the
 * 32-byte SHA-256 trailer). Also: a rewrite by our writer reads back the same.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { KeyValue } from '../../../proto/gen/etcd/kv.js';
import { openBolt, type BoltReader } from '../../../server/snapshot/bbolt/index.js';
import { writeBolt } from '../../../server/snapshot/bbolt/writer.js';
import { repoRoot } from '../raft/harness/repo-root.js';
import { checkBolt } from './bbolt-check.js';

const FIXTURE = join(repoRoot(), 'test', 'unit', 'snapshot', 'testdata', 'bbolt-etcd-3.4.db');
const dir = mkdtempSync(join(tmpdir(), 'bbolt-etcd-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ETCD_BUCKETS = ['alarm', 'auth', 'authRoles', 'authUsers', 'cluster', 'key', 'lease', 'members', 'members_removed', 'meta'];

async function all(r: BoltReader, bucket: string): Promise<(readonly [Buffer, Buffer])[]> {
  const out: (readonly [Buffer, Buffer])[] = [];
  for await (const e of r.entries(bucket)) out.push(e);
  return out;
}

void test('the fixture is what etcdctl saved: 94208 bytes of pages + their SHA-256', () => {
  const bytes = readFileSync(FIXTURE);
  assert.equal(bytes.length, 94208 + 32);
  assert.deepEqual(bytes.subarray(94208), createHash('sha256').update(bytes.subarray(0, 94208)).digest());
  checkBolt(bytes.subarray(0, 94208));
});

void test("the reader lists etcd's buckets and their entries", async () => {
  const r = await openBolt(FIXTURE);
  try {
    assert.deepEqual(r.bucketNames(), ETCD_BUCKETS);
    let total = 0;
    for (const b of ETCD_BUCKETS) total += (await all(r, b)).length;
    assert.equal(total, 310, 'etcdctl snapshot status: totalKey 310');

    const keyBucket = await all(r, 'key');
    assert.equal(keyBucket.length, 305);
    const revs = keyBucket.map(([k]) => k.readBigUInt64BE(0));
    assert.deepEqual(revs, Array.from({ length: 305 }, (_, i) => BigInt(i + 2)));
    assert.equal(revs.at(-1), 306n, 'etcdctl snapshot status: revision 306');

    const live = new Map<string, KeyValue>();
    for (const [k, v] of keyBucket) {
      const kv = KeyValue.decode(v);
      if (k.length === 18 && k[17] === 0x74) live.delete(kv.key.toString());
      else live.set(kv.key.toString(), kv);
    }
    assert.equal(live.has('foo'), false, 'foo was deleted (tombstone at revision 5)');
    assert.equal(live.get('leased')?.lease, 0x499fa1fdacf15d06n);
    assert.equal(live.get('big')?.value.toString(), 'B'.repeat(10000));
    assert.equal(live.get('k/150')?.modRevision, 7n + 149n);
    assert.equal([...live.keys()].filter((k) => k.startsWith('k/')).length, 300);

    assert.deepEqual((await all(r, 'lease')).map(([k]) => k.toString('hex')), ['499fa1fdacf15d06']);
    const meta = new Map((await all(r, 'meta')).map(([k, v]) => [k.toString(), v]));
    assert.equal(meta.get('consistent_index')?.length, 8);
    assert.deepEqual((await all(r, 'cluster')).map(([k, v]) => [k.toString(), v.toString()]), [['clusterVersion', '3.4.0']]);
    assert.deepEqual(await all(r, 'alarm'), []);
    assert.throws(() => r.entries('nope'), /no bucket/);
  } finally {
    await r.close();
  }
});

void test('our writer rewrites the etcd file into one that reads back the same', async () => {
  const src = await openBolt(FIXTURE);
  const copy = join(dir, 'copy.db');
  try {
    await writeBolt(copy, src.bucketNames().map((name) => ({ name, entries: src.entries(name) })));
  } finally {
    await src.close();
  }
  checkBolt(readFileSync(copy));
  const [a, b] = [await openBolt(FIXTURE), await openBolt(copy)];
  try {
    assert.deepEqual(b.bucketNames(), a.bucketNames());
    for (const name of a.bucketNames()) assert.deepEqual(await all(b, name), await all(a, name));
  } finally {
    await a.close();
    await b.close();
  }
});
