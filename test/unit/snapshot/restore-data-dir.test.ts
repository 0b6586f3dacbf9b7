/**
 * restoreDataDir on real files with an in-memory snapshot reader: the backend and log it
 * writes, and its refusals (existing data dir, bad or missing SHA-256 trailer) with etcdctl's
 * texts, leaving nothing behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { restoreDataDir, type SnapshotReader } from '../../../server/snapshot/restore/build-data-dir.js';
import { parseRestoreTarget } from '../../../server/snapshot/restore/restore-target.js';
import { openLevelBackend } from '../../../server/storage/level-backend.js';
import { Bucket } from '../../../server/storage/backend.js';
import { openWal } from '../../../server/wal/index.js';
import { decodeWalMetadata } from '../../../server/bootstrap/data-dir.js';
import { decodeMember } from '../../../server/membership/membership.js';

const root = mkdtempSync(join(tmpdir(), 'restore-dd-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(root, `case-${++n}`);

type Buckets = Record<string, [Buffer, Buffer][]>;

function reader(buckets: Buckets): SnapshotReader {
  return {
    bucketNames: () => Object.keys(buckets).sort(),
    entries: async function* (name: string) {
      yield* buckets[name] ?? [];
    },
    close: async () => undefined,
  };
}

/** A file of `pages` 512-byte pages plus (unless `trailer` is false) its SHA-256. */
function snapshotFile(dir: string, pages = 8, trailer: 'good' | 'bad' | 'none' = 'good'): string {
  mkdirSync(dir, { recursive: true });
  const body = Buffer.alloc(512 * pages, 7);
  const sha = createHash('sha256').update(body).digest();
  if (trailer === 'bad') sha[0] ^= 1;
  const path = join(dir, 'snap.db');
  writeFileSync(path, trailer === 'none' ? body : Buffer.concat([body, sha]));
  return path;
}

const rev = (main: number): Buffer => {
  const b = Buffer.alloc(17);
  b.writeBigUInt64BE(BigInt(main), 0);
  b[8] = 0x5f;
  return b;
};

const ETCD_LIKE: Buckets = {
  key: [[rev(2), Buffer.from('0a0161', 'hex')], [rev(3), Buffer.from('0a0162', 'hex')]],
  meta: [
    [Buffer.from('consistent_index'), Buffer.from('0000000000000009', 'hex')],
    [Buffer.from('finishedCompactRev'), rev(2)],
    [Buffer.from('term'), Buffer.from('0000000000000004', 'hex')],
  ],
  lease: [[Buffer.from('0000000000000007', 'hex'), Buffer.from('0807103c', 'hex')]],
  cluster: [[Buffer.from('clusterVersion'), Buffer.from('3.4.0')]],
  members: [[Buffer.from('8e9e05c52164694d'), Buffer.from('{"id":1}')]],
  members_removed: [[Buffer.from('1234'), Buffer.from('removed')]],
  weird: [[Buffer.from('x'), Buffer.from('y')]],
};

function target(name = 'm1', peer = 'http://127.0.0.1:2380') {
  const t = parseRestoreTarget({ name, initialCluster: 'm1=http://127.0.0.1:2380,m2=http://127.0.0.1:2381', initialClusterToken: 'tok', initialAdvertisePeerUrls: peer });
  assert.ok(t.ok);
  return t.target;
}

void test('builds the backend from the snapshot and the founding log with a marker', async () => {
  const dir = fresh();
  const dataDir = join(dir, 'm1.kvstore');
  const progress: string[] = [];
  const r = await restoreDataDir(
    { snapshotPath: snapshotFile(dir), dataDir, skipHashCheck: false, target: target() },
    { openSnapshot: async () => reader(ETCD_LIKE), onProgress: (phase, done, total) => progress.push(`${phase}:${done}/${total}`) },
  );
  assert.ok(r.ok, r.ok ? '' : r.message);
  assert.deepEqual(r.value.skippedBuckets, ['weird']);
  assert.ok(progress.includes('verify:4096/4096') && progress.at(-1) === 'copy:4096/4096');
  assert.deepEqual(readdirSync(dir).sort(), ['m1.kvstore', 'snap.db']);

  const backend = await openLevelBackend(join(dataDir, 'member', 'snap', 'db'));
  try {
    const all = async (b: Bucket) => {
      const out: string[] = [];
      for await (const [k, v] of backend.iterate(b)) out.push(`${k.toString('hex')}=${v.toString('hex')}`);
      return out;
    };
    assert.deepEqual(await all(Bucket.Key), ETCD_LIKE.key!.map(([k, v]) => `${k.toString('hex')}=${v.toString('hex')}`));
    assert.deepEqual((await backend.get(Bucket.Meta, Buffer.from('consistent_index')))?.toString('hex'), '0000000000000002');
    assert.equal(await backend.get(Bucket.Meta, Buffer.from('term')), undefined);
    assert.deepEqual(await backend.get(Bucket.Meta, Buffer.from('finishedCompactRev')), rev(2));
    assert.equal((await all(Bucket.Lease)).length, 1);
    assert.equal((await backend.get(Bucket.Cluster, Buffer.from('clusterVersion')))?.toString(), '3.4.0');
    assert.deepEqual(await all(Bucket.MembersRemoved), []);
    const members: string[] = [];
    for await (const [, v] of backend.iterate(Bucket.Members)) members.push(decodeMember(v).name);
    assert.deepEqual(members.sort(), ['m1', 'm2']);
  } finally {
    await backend.close();
  }

  const opened = await openWal(join(dataDir, 'member', 'wal'), { metadata: Buffer.alloc(0) });
  try {
    assert.equal(opened.created, false);
    assert.equal(decodeWalMetadata(opened.contents.metadata).memberId, r.value.plan.memberId);
    assert.deepEqual(opened.contents.hardState, { term: 1, vote: 0n, commit: 2 });
    assert.equal(opened.contents.snapshot?.index, 2);
    assert.equal(opened.contents.snapshot?.term, 1);
    assert.equal(opened.contents.snapshot?.confState?.voters.length, 2);
    assert.deepEqual(opened.contents.entries, []);
  } finally {
    await opened.wal.close();
  }
});

void test('a separate --wal-dir holds the log', async () => {
  const dir = fresh();
  const r = await restoreDataDir(
    { snapshotPath: snapshotFile(dir), dataDir: join(dir, 'data'), walDir: join(dir, 'wal'), skipHashCheck: false, target: target() },
    { openSnapshot: async () => reader(ETCD_LIKE) },
  );
  assert.ok(r.ok);
  assert.ok(readdirSync(join(dir, 'wal')).some((f) => f.endsWith('.wal')));
  assert.equal(existsSync(join(dir, 'data', 'member', 'wal')), false);
});

void test('refusals leave no data dir behind', async () => {
  const dir = fresh();
  const existing = join(dir, 'exists');
  mkdirSync(existing, { recursive: true });
  const base = { dataDir: existing, skipHashCheck: false, target: target() };
  const ports = { openSnapshot: async () => reader(ETCD_LIKE) };
  assert.deepEqual(await restoreDataDir({ ...base, snapshotPath: snapshotFile(dir) }, ports), { ok: false, message: `data-dir "${existing}" exists` });

  const walDir = join(dir, 'wal-exists');
  mkdirSync(walDir);
  assert.deepEqual(await restoreDataDir({ ...base, dataDir: join(dir, 'd0'), walDir, snapshotPath: snapshotFile(dir) }, ports), { ok: false, message: `wal-dir "${walDir}" exists` });

  const bad = await restoreDataDir({ ...base, dataDir: join(dir, 'd1'), snapshotPath: snapshotFile(join(dir, 'bad'), 8, 'bad') }, ports);
  assert.ok(!bad.ok && /^expected sha256 \[\d+( \d+){31}\], got \[\d+( \d+){31}\]$/.test(bad.message), JSON.stringify(bad));
  assert.equal(existsSync(join(dir, 'd1')), false);

  const none = await restoreDataDir({ ...base, dataDir: join(dir, 'd2'), snapshotPath: snapshotFile(join(dir, 'none'), 8, 'none') }, ports);
  assert.deepEqual(none, { ok: false, message: 'snapshot missing hash but --skip-hash-check=false' });

  const missing = await restoreDataDir({ ...base, dataDir: join(dir, 'd3'), snapshotPath: join(dir, 'nofile') }, ports);
  assert.deepEqual(missing, { ok: false, message: `open ${join(dir, 'nofile')}: no such file or directory` });

  const broken = await restoreDataDir(
    { ...base, dataDir: join(dir, 'd4'), snapshotPath: snapshotFile(join(dir, 'ok')) },
    {
      openSnapshot: async () => ({
        ...reader(ETCD_LIKE),
        entries: async function* () {
          yield [Buffer.from('k'), Buffer.from('v')] as const;
          throw new Error('page 9: bad page type');
        },
      }),
    },
  );
  assert.deepEqual(broken, { ok: false, message: 'page 9: bad page type' });
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('d')), []);
});

void test('--skip-hash-check accepts a file without (or with a wrong) trailer', async () => {
  const dir = fresh();
  for (const kind of ['none', 'bad'] as const) {
    const r = await restoreDataDir(
      { snapshotPath: snapshotFile(join(dir, kind), 8, kind), dataDir: join(dir, `d-${kind}`), skipHashCheck: true, target: target() },
      { openSnapshot: async () => reader(ETCD_LIKE) },
    );
    assert.ok(r.ok);
  }
});
