/**
 * The bbolt reader and writer on snapshot files the real etcd 3.4 writes, with more data than
 * the unit fixture: thousands of keys (branch pages), values of hundreds of KiB (overflow
 * pages), leases, deletions and a compaction. The reader's replay of the `key` bucket equals
 * what etcd serves; `etcdctl snapshot status` agrees with our key count; a rewrite by our writer
 * (plus its SHA-256) gets from `etcdctl snapshot status` the same hash, revision and key count.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { openBolt, writeBolt } from '../../server/snapshot/bbolt/index.js';
import { ctlFor, etcdctl, makeTempDir, openKv, put, startEtcd, type BoundCtl, type Member } from '../support/processes.js';
import { checkBolt } from '../unit/snapshot/bbolt-check.js';
import { everyKey, snapshotKeys } from './snapshot-keys.js';

interface Status {
  hash: number;
  revision: number;
  totalKey: number;
  totalSize: number;
}

async function status(member: Member, file: string): Promise<Status> {
  const r = await etcdctl(member.endpoint, ['snapshot', 'status', file, '-w', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Status;
}

void describe('bbolt reader and writer on snapshots of the real etcd 3.4', () => {
  let etcd: Member;
  let ctl: BoundCtl;
  let file: string;
  const dir = makeTempDir('etcd-files');

  before(async () => {
    etcd = await startEtcd({ name: 'etcdfiles' });
    ctl = ctlFor(etcd);
    const kv = openKv(etcd.endpoint);
    try {
      const keys = Array.from({ length: 6000 }, (_, i) => `many/${String(i).padStart(5, '0')}`);
      for (let i = 0; i < keys.length; i += 64) {
        await Promise.all(keys.slice(i, i + 64).map((k) => put(kv, k, `value of ${k} `.repeat(3), 10_000)));
      }
      for (let i = 0; i < 3; i++) await put(kv, `big/${i}`, String(i).repeat(300_000 + i * 1000), 10_000);
      for (let i = 0; i < 500; i += 2) await put(kv, keys[i], 'rewritten', 10_000);
    } finally {
      kv.close();
    }
    const lease = (await ctl.ok(['lease', 'grant', '3600'])).split(' ')[1];
    await ctl.ok(['put', 'leased', 'v', `--lease=${lease}`]);
    await ctl.ok(['del', 'many/00', '--prefix']);
    const rev = await ctl.revision();
    await ctl.ok(['compaction', String(rev - 10)]);
    await ctl.ok(['put', 'last', 'one']);
    file = join(dir, 'etcd.db');
    await ctl.ok(['snapshot', 'save', file]);
  });

  void it("the reader's replay of the key bucket is what etcd serves", async () => {
    const bytes = readFileSync(file);
    checkBolt(bytes.subarray(0, bytes.length - 32));
    const [snap, live] = [await snapshotKeys(file), await everyKey(ctl)];
    assert.equal(snap.revision, live.revision);
    assert.equal(snap.kvs.size, live.kvs.size);
    assert.deepEqual(snap.kvs, live.kvs);
  });

  void it('etcdctl snapshot status counts the keys our reader finds, at the revision it finds', async () => {
    const st = await status(etcd, file);
    const r = await openBolt(file);
    let n = 0;
    try {
      for (const b of r.bucketNames()) for await (const _ of r.entries(b)) n++;
    } finally {
      await r.close();
    }
    assert.equal(st.totalKey, n);
    assert.equal(st.revision, (await snapshotKeys(file)).revision);
  });

  void it('a rewrite by our writer has the same status (hash, revision, keys) in etcdctl', async () => {
    const copy = join(dir, 'rewritten.db');
    const src = await openBolt(file);
    try {
      await writeBolt(copy, src.bucketNames().map((name) => ({ name, entries: src.entries(name) })));
    } finally {
      await src.close();
    }
    const depths = checkBolt(readFileSync(copy)).depths;
    assert.ok((depths.get('key') ?? 0) >= 2, `key bucket depth ${depths.get('key')}`);
    appendFileSync(copy, createHash('sha256').update(readFileSync(copy)).digest());
    const [a, b] = [await status(etcd, file), await status(etcd, copy)];
    assert.deepEqual({ ...b, totalSize: 0 }, { ...a, totalSize: 0 });
  });
});
