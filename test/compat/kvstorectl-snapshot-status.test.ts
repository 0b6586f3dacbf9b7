/**
 * kvstorectl snapshot status vs etcdctl 3.4 snapshot status on the same files, in every output
 * format: a snapshot of a real etcd member, a snapshot of a kvstore member (saved by etcdctl and
 * by kvstorectl), a file with a damaged trailer (status does not check it), and the files
 * bbolt refuses; stdout, the Error line and the exit code must be equal.
 * And `snapshot restore`'s refusals (argument count, existing data dir, missing or mismatched
 * SHA-256, missing file) against etcdctl's, plus a kvstore snapshot restored into kvstore.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ctlFor, etcdctl, makeTempDir, startEtcd, startKvstore, type Member } from '../support/processes.js';
import { kvstorectl } from '../unit/ctl/support/kvstorectl-runner.js';

const FORMATS = ['simple', 'table', 'json', 'fields', 'protobuf'] as const;
const NOWHERE = '127.0.0.1:1';

const errorLine = (stderr: string): string | undefined => stderr.split('\n').find((l) => l.startsWith('Error:'));

async function sameStatus(file: string, extra: readonly string[] = []): Promise<void> {
  const args = ['snapshot', 'status', file, ...extra];
  const want = await etcdctl(NOWHERE, args);
  const got = await kvstorectl(NOWHERE, args);
  assert.equal(got.stdout, want.stdout, `stdout of ${args.join(' ')}`);
  assert.equal(errorLine(got.stderr), errorLine(want.stderr), `Error line of ${args.join(' ')}`);
  assert.equal(got.code, want.code, `exit code of ${args.join(' ')}`);
}

async function fill(m: Member): Promise<void> {
  const ctl = ctlFor(m);
  for (let i = 0; i < 30; i++) await ctl.ok(['put', `status/k${i}`, `v${i}`.repeat(i + 1)]);
  const lease = /lease ([0-9a-f]+) granted/.exec(await ctl.ok(['lease', 'grant', '300']))![1];
  await ctl.ok(['put', '--lease', lease, 'status/leased', 'x']);
  await ctl.ok(['del', '--prefix', 'status/k1']);
  await ctl.ok(['compaction', String((await ctl.revision()) - 3)]);
  await ctl.ok(['put', 'status/last', 'y']);
}

void describe('snapshot status and restore: kvstorectl as etcdctl 3.4', () => {
  const dir = makeTempDir('snapshot-status');
  let etcd: Member;
  let kv: Member;
  const files: Record<string, string> = {};

  before(async () => {
    [etcd, kv] = await Promise.all([startEtcd(), startKvstore()]);
    await Promise.all([fill(etcd), fill(kv)]);
    files.etcd = join(dir, 'etcd.db');
    files.kvstore = join(dir, 'kvstore.db');
    files.kvstoreByCtl = join(dir, 'kvstore-ctl.db');
    await ctlFor(etcd).ok(['snapshot', 'save', files.etcd]);
    await ctlFor(kv).ok(['snapshot', 'save', files.kvstore]);
    const saved = await kvstorectl(kv.endpoint, ['snapshot', 'save', files.kvstoreByCtl]);
    assert.equal(saved.code, 0, saved.stderr);
    files.badHash = join(dir, 'bad-hash.db');
    const bytes = readFileSync(files.etcd);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(files.badHash, bytes);
    files.noHash = join(dir, 'no-hash.db');
    writeFileSync(files.noHash, readFileSync(files.etcd).subarray(0, statSync(files.etcd).size - 32));
    files.small = join(dir, 'small.db');
    writeFileSync(files.small, Buffer.alloc(4096, 1));
    files.junk = join(dir, 'junk.db');
    writeFileSync(files.junk, Buffer.alloc(3 * 4096, 0x5a));
  });

  after(async () => {
    await Promise.all([etcd.stop(), kv.stop()]);
  });

  for (const source of ['etcd', 'kvstore', 'kvstoreByCtl', 'badHash', 'noHash'] as const) {
    void it(`status of a ${source} snapshot in every format`, async () => {
      for (const w of FORMATS) await sameStatus(files[source], ['-w', w]);
    });
  }

  void it('status refusals: missing file, no argument, files bbolt cannot open', async () => {
    await sameStatus(join(dir, 'missing.db'));
    await sameStatus(files.small);
    await sameStatus(files.junk);
    const want = await etcdctl(NOWHERE, ['snapshot', 'status']);
    const got = await kvstorectl(NOWHERE, ['snapshot', 'status']);
    assert.deepEqual([got.code, errorLine(got.stderr)], [want.code, errorLine(want.stderr)]);
  });

  void it('restore refusals give etcdctl\'s errors and exit codes', async () => {
    const existing = join(dir, 'existing');
    mkdirSync(existing);
    const cases: (readonly string[])[] = [
      ['snapshot', 'restore'],
      ['snapshot', 'restore', files.etcd, '--data-dir', existing],
      ['snapshot', 'restore', files.badHash, '--data-dir', join(dir, 'r-bad')],
      ['snapshot', 'restore', files.noHash, '--data-dir', join(dir, 'r-none')],
      ['snapshot', 'restore', join(dir, 'missing.db'), '--data-dir', join(dir, 'r-missing')],
      ['snapshot', 'restore', files.etcd, '--name', 'nobody', '--data-dir', join(dir, 'r-nobody')],
    ];
    for (const args of cases) {
      const want = await etcdctl(NOWHERE, args.map((a) => a.replace(/\/r-/, '/etcd-r-')));
      const got = await kvstorectl(NOWHERE, args.map((a) => a.replace(/\/r-/, '/kv-r-')));
      assert.equal(got.code, want.code, `exit code of ${args.join(' ')}`);
      assert.equal(errorLine(got.stderr)?.replace('/kv-r-', '/r-'), errorLine(want.stderr)?.replace('/etcd-r-', '/r-'), `Error line of ${args.join(' ')}`);
    }
  });

  void it('a kvstore snapshot restored by kvstorectl serves its keys at its revision', async () => {
    const dataDir = join(dir, 'from-kvstore.kvstore');
    copyFileSync(files.kvstore, join(dir, 'copy.db'));
    const r = await kvstorectl(NOWHERE, ['snapshot', 'restore', join(dir, 'copy.db'), '--name', 'solo', '--data-dir', dataDir, '--initial-cluster', 'solo=http://127.0.0.1:2380', '--initial-advertise-peer-urls', 'http://127.0.0.1:2380']);
    assert.equal(r.code, 0, r.stderr);
    const before = await ctlFor(kv).ok(['get', 'status/', '--prefix', '-w', 'json']);
    const m = await startKvstore({ name: 'solo', dataDir });
    try {
      const got = await ctlFor(m).ok(['get', 'status/', '--prefix', '-w', 'json']);
      const tail = (s: string) => s.slice(s.indexOf('"kvs":'));
      assert.equal(tail(got), tail(before));
      assert.equal(/"revision":(\d+)/.exec(got)![1], /"revision":(\d+)/.exec(before)![1]);
    } finally {
      await m.stop();
    }
  });
});
