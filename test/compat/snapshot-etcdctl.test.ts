/**
 * kvstore snapshots read by etcd's own tools: the real `etcdctl snapshot save` against a kvstore
 * member succeeds; the real `etcdctl snapshot status` reads the file and reports the member's
 * revision and the key count our reader finds; the file passes the bbolt structural check; and
 * kvstore snapshot → real `etcdctl snapshot restore` → the real etcd 3.4 serves every key (same
 * values, create/mod revisions, versions, leases) at the same revision, its `endpoint hashkv`
 * is the CRC-32C of the file's key bucket, and keeps working on those pages (writes, compaction, defrag).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { openBolt } from '../../server/snapshot/bbolt/index.js';
import { ctlFor, etcdctl, makeTempDir, parseCtlJson, reserveAddress, startEtcd, startKvstore, type BoundCtl, type Member } from '../support/processes.js';
import { checkBolt } from '../unit/snapshot/bbolt-check.js';
import { everyKey, keyBucketHash } from './snapshot-keys.js';

async function countEntries(path: string): Promise<number> {
  const r = await openBolt(path);
  try {
    let n = 0;
    for (const b of r.bucketNames()) for await (const _ of r.entries(b)) n++;
    return n;
  } finally {
    await r.close();
  }
}

void describe('etcdctl snapshot save / status / restore on a kvstore snapshot', () => {
  let member: Member;
  let ctl: BoundCtl;
  let file: string;
  let lease: string;

  before(async () => {
    member = await startKvstore({ name: 'snapsrc' });
    ctl = ctlFor(member);
    await ctl.ok(['put', 'foo', 'bar']);
    lease = (await ctl.ok(['lease', 'grant', '3600'])).split(' ')[1];
    await ctl.ok(['put', 'leased', 'v', `--lease=${lease}`]);
    await ctl.ok(['put', 'foo', 'baz']);
    await ctl.ok(['put', 'gone', 'x']);
    await ctl.ok(['del', 'gone']);
    await ctl.ok(['put', 'big', 'B'.repeat(100_000)]);
    const txn = Array.from({ length: 400 }, (_, i) => `put k/${String(i).padStart(4, '0')} value-${i}`);
    for (let i = 0; i < txn.length; i += 100) await ctl.ok(['txn'], { input: `\n${txn.slice(i, i + 100).join('\n')}\n\n\n` });
    file = join(makeTempDir('snap'), 'kv.db');
    const out = await ctl.ok(['snapshot', 'save', file]);
    assert.equal(out, `Snapshot saved at ${file}\n`);
  });

  void it('the saved file is bbolt pages + SHA-256, with every backend bucket', async () => {
    const bytes = readFileSync(file);
    assert.equal(bytes.length % 4096, 32);
    checkBolt(bytes.subarray(0, bytes.length - 32));
    const r = await openBolt(file);
    try {
      for (const b of ['alarm', 'auth', 'cluster', 'key', 'lease', 'members', 'members_removed', 'meta']) assert.ok(r.bucketNames().includes(b), b);
    } finally {
      await r.close();
    }
  });

  void it('etcdctl snapshot status reports the member revision and the key count', async () => {
    const r = await etcdctl(member.endpoint, ['snapshot', 'status', file, '-w', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const status = JSON.parse(r.stdout) as { hash: number; revision: number; totalKey: number; totalSize: number };
    assert.equal(status.revision, await ctl.revision());
    assert.equal(status.totalKey, await countEntries(file));
    assert.equal(status.totalSize, readFileSync(file).length - 32);
  });

  void it('etcdctl snapshot restore → the real etcd serves every key at the same revision', async () => {
    const address = await reserveAddress('restored');
    const dataDir = join(makeTempDir('restored'), 'restored.etcd');
    const r = await etcdctl(member.endpoint, [
      'snapshot', 'restore', file, '--name=restored', `--initial-cluster=restored=${address.peerUrl}`,
      '--initial-cluster-token=restored-token', `--initial-advertise-peer-urls=${address.peerUrl}`, `--data-dir=${dataDir}`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const etcd = await startEtcd({ address, dataDir });
    const etcdCtl = ctlFor(etcd);
    const [want, got] = [await everyKey(ctl), await everyKey(etcdCtl)];
    assert.equal(got.revision, want.revision);
    assert.equal(got.kvs.size, want.kvs.size);
    assert.deepEqual(got.kvs, want.kvs);
    assert.match(await etcdCtl.ok(['lease', 'list']), new RegExp(`\\b${lease}\\b`));
    const hashKv = async (c: BoundCtl): Promise<unknown> =>
      (parseCtlJson(await c.ok(['endpoint', 'hashkv', `--rev=${want.revision}`, '-w', 'json'])) as { HashKV: { hash: unknown } }[])[0].HashKV.hash;
    // etcd's HashKV (CRC-32C) over the restored key bucket equals the one over the file's, and
    // kvstore's over the same history
    assert.equal(Number(await hashKv(etcdCtl)), await keyBucketHash(file), 'endpoint hashkv at the snapshot revision');
    assert.equal(Number(await hashKv(ctl)), Number(await hashKv(etcdCtl)), 'kvstore and etcd agree on endpoint hashkv');
    // bbolt works on the pages we wrote: writes split them, a compaction deletes most records
    // (rebalancing), defrag copies every bucket into a new file
    await etcdCtl.ok(['put', 'after', 'restore']);
    assert.equal(await etcdCtl.revision(), want.revision + 1);
    await etcdCtl.ok(['compaction', String(want.revision + 1)]);
    await etcdCtl.ok(['defrag']);
    const again = await everyKey(etcdCtl);
    want.kvs.set('after', `restore|c${want.revision + 1}|m${want.revision + 1}|v1|l0`);
    assert.deepEqual(again.kvs, want.kvs);
  });
});
