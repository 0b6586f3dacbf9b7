// One conformance suite run against every BackupStore: a directory (fs-store.ts) and an S3
// bucket (s3-store.ts against an in-process S3 endpoint, through @aws-sdk/client-s3). Then the
// store selection (backup-stores.ts): destination → store, credentials from a Secret.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KvstoreCluster } from '../../../operator/api/types.js';
import type { BackupStore } from '../../../operator/controller/backup/store-port.js';
import { portOk, type SnapshotFile } from '../../../operator/controller/ports.js';
import { PlatformBackupStores } from '../../../operator/runtime/backup-store/backup-stores.js';
import { DirectoryBackupStore } from '../../../operator/runtime/backup-store/fs-store.js';
import { keyPrefix, makeS3Client, S3BackupStore } from '../../../operator/runtime/backup-store/s3-store.js';
import { makeTempDir } from '../../support/processes.js';
import { cluster } from '../controller/fixtures.js';
import { startFakeS3 } from './fake-s3.js';

const s3 = await startFakeS3(2);
after(() => s3.close());

/** What the member admin leaves at localFile(name): the verified snapshot. */
async function write(store: BackupStore, name: string, bytes: string): Promise<SnapshotFile> {
  const local = await store.localFile(name);
  assert.ok(local.ok, local.ok ? '' : local.error);
  writeFileSync(local.value, bytes);
  return { file: local.value, sha256: 'a'.repeat(64), revision: 7, size: bytes.length };
}

interface Case {
  readonly name: string;
  make(): BackupStore;
  uri(name: string): string;
}

const dest = { bucket: 'backups', prefix: 'team/kv/', endpoint: s3.url, region: 'us-east-1' };
const creds = { accessKeyId: 'AK', secretAccessKey: 'SK' };
const CASES: readonly Case[] = [
  { name: 'directory', make: () => new DirectoryBackupStore(join(makeTempDir('backup-store'), 'sub'), 'demo'), uri: (n) => n },
  { name: 's3', make: () => new S3BackupStore(makeS3Client(dest, creds), dest, 'demo', makeTempDir('backup-staging')), uri: (n) => `s3://backups/team/kv/${n}` },
];

for (const c of CASES) {
  void test(`backup store (${c.name}): publish, list oldest first (only this cluster's backups), remove`, async () => {
    s3.objects.clear();
    const store = c.make();
    assert.deepEqual(await store.list(), portOk([]));
    const names = ['demo-20260301T110000Z.db', 'demo-20260301T090000Z.db', 'demo-20260301T100000Z.db'];
    for (const n of names) {
      const f = await write(store, n, `image of ${n}`);
      const uri = await store.publish(n, f);
      assert.ok(uri.ok, uri.ok ? '' : uri.error);
      assert.ok(uri.value.endsWith(c.uri(n)), uri.value);
    }
    // Another cluster's backup and a left-over .part are not listed.
    const other = await write(store, 'demo-x-20260301T100000Z.db', 'other');
    await store.publish('demo-x-20260301T100000Z.db', other);
    const part = await store.localFile('demo-20260301T120000Z.db');
    if (part.ok) writeFileSync(`${part.value}.part`, 'partial');
    const listed = await store.list();
    assert.ok(listed.ok, listed.ok ? '' : listed.error);
    assert.deepEqual(listed.value.map((b) => b.name), [...names].sort());
    assert.deepEqual(listed.value.map((b) => b.time), ['2026-03-01T09:00:00Z', '2026-03-01T10:00:00Z', '2026-03-01T11:00:00Z']);
    assert.equal(listed.value[0].size, 'image of demo-20260301T090000Z.db'.length);
    await store.discard('demo-20260301T120000Z.db');
    if (part.ok) assert.equal(existsSync(`${part.value}.part`), false);
    assert.deepEqual(await store.remove(['demo-20260301T090000Z.db', 'demo-20260301T100000Z.db', 'not-ours.db']), portOk(undefined));
    const left = await store.list();
    assert.deepEqual(left.ok ? left.value.map((b) => b.name) : left.error, ['demo-20260301T110000Z.db']);
  });
}

void test('backup store (s3): the upload carries the digest and revision, the staging file is removed, failures are values', async () => {
  s3.objects.clear();
  const staging = makeTempDir('backup-staging');
  const store = new S3BackupStore(makeS3Client(dest, creds), dest, 'demo', staging);
  const f = await write(store, 'demo-20260301T100000Z.db', 'bytes');
  assert.ok((await store.publish('demo-20260301T100000Z.db', f)).ok);
  const o = s3.objects.get('backups/team/kv/demo-20260301T100000Z.db');
  assert.equal(o?.body.toString(), 'bytes');
  assert.deepEqual(o?.metadata, { sha256: 'a'.repeat(64), revision: '7' });
  assert.equal(existsSync(f.file), false);
  s3.failing = true;
  try {
    const g = await write(store, 'demo-20260301T110000Z.db', 'more');
    const r = await store.publish('demo-20260301T110000Z.db', g);
    assert.equal(r.ok, false);
    const l = await store.list();
    assert.equal(l.ok, false);
  } finally {
    s3.failing = false;
  }
  assert.equal(keyPrefix(undefined), '');
  assert.equal(keyPrefix('/a/b/'), 'a/b/');
});

void test('backup stores: the destination picks the store; S3 credentials come from the named Secret', async () => {
  const root = makeTempDir('backup-stores');
  mkdirSync(root, { recursive: true });
  const secrets = new Map([['s3-creds', { stringData: { AWS_ACCESS_KEY_ID: 'AK', AWS_SECRET_ACCESS_KEY: 'SK' } }]]);
  const stores = new PlatformBackupStores({
    dirOf: (_c, path) => join(root, path ?? 'default'),
    stagingDirOf: () => join(root, 'staging'),
    secretsOf: () => (name) => Promise.resolve(portOk(secrets.get(name))),
  });
  try {
    const schedule = '@daily';
    const plain = cluster({ backup: { schedule, destination: {}, retention: { maxCount: 1 }, suspend: false } });
    const dir = await stores.storeFor(plain);
    assert.ok(dir.ok && dir.value.where === join(root, 'default'));
    const none = await stores.storeFor(cluster());
    assert.equal(none.ok, false);
    const withS3 = (secret: string): KvstoreCluster => cluster({ backup: { schedule, destination: { s3: { ...dest, credentialsSecret: secret } }, retention: { maxCount: 1 }, suspend: false } });
    const ok = await stores.storeFor(withS3('s3-creds'));
    assert.ok(ok.ok && ok.value.where === 's3://backups/team/kv/');
    const missing = await stores.storeFor(withS3('nope'));
    assert.ok(!missing.ok && /Secret nope .*not found/.test(missing.error), missing.ok ? '' : missing.error);
    secrets.set('half', { stringData: { AWS_ACCESS_KEY_ID: 'AK' } } as never);
    const half = await stores.storeFor(withS3('half'));
    assert.ok(!half.ok && /AWS_SECRET_ACCESS_KEY/.test(half.error));
  } finally {
    stores.close();
  }
});
