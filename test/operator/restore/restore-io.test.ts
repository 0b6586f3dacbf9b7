/**
 * The I/O side of restores, on the real etcd 3.4.23 snapshot fixture: the snapshot check
 * (inspect-snapshot.ts), the restore init container's script run as a process against a served
 * file (it restores with the real kvstorectl, skips a data dir that exists or a joining member,
 * refuses a file whose trailer is not the expected one), the operator's /restore answers
 * (token, namespace directory), and the pod template carrying the restore across template changes.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { registry } from '../../support/registry.js';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectSnapshot } from '../../../operator/controller/restore/inspect-snapshot.js';
import { RESTORE_SCRIPT, RESTORE_SHA256_ENV, RESTORE_TOKEN_ENV, RESTORE_URL_ENV, storedRestore } from '../../../operator/controller/builders/restore-init-container.js';
import { buildStatefulSet } from '../../../operator/controller/builders/stateful-set.js';
import { storedTemplate } from '../../../operator/runtime/kube-platform/kube-platform.js';
import { serveRestore, restoreURLOf, kubeRestoreInspector } from '../../../operator/runtime/kube-platform/restore-route.js';
import { containedFile, mayRestoreFrom } from '../../../operator/runtime/kube-platform/restore-dirs.js';
import { MemoryKubeClient } from '../../../operator/runtime/kube/memory-client.js';
import type { KubeObject } from '../../../operator/runtime/kube/types.js';
import { repoRoot } from '../../unit/raft/harness/repo-root.js';
import { BUILD_ROOT } from '../../support/paths.js';
import { cluster } from '../controller/fixtures.js';
import { localRestoreInspector } from '../../../operator/runtime/local/local-restore.js';
import type { KvstoreCluster } from '../../../operator/api/types.js';

const FIXTURE = join(repoRoot(), 'test', 'unit', 'snapshot', 'testdata', 'bbolt-etcd-3.4.db');
const CTL_MAIN = join(BUILD_ROOT, 'ctl', 'main.js');
const root = mkdtempSync(join(tmpdir(), 'restore-io-'));
after(() => rmSync(root, { recursive: true, force: true }));
const trailer = (file: string): string => {
  const b = readFileSync(file);
  return b.subarray(b.length - 32).toString('hex');
};

void test('inspectSnapshot: a real etcd 3.4 snapshot, then missing, flipped and truncated copies', async () => {
  const ok = await inspectSnapshot(FIXTURE);
  assert.ok(ok.ok, JSON.stringify(ok));
  assert.equal(ok.facts.sha256, trailer(FIXTURE));
  assert.equal(ok.facts.size, readFileSync(FIXTURE).length);
  assert.ok(ok.facts.revision > 0);
  assert.equal(ok.facts.storageVersion, undefined);
  assert.ok(ok.facts.clusterVersion === undefined || /^3\.4\.\d+$/.test(ok.facts.clusterVersion), String(ok.facts.clusterVersion));

  const missing = await inspectSnapshot(join(root, 'nope.db'));
  assert.ok(!missing.ok && missing.reason === 'SnapshotMissing', JSON.stringify(missing));
  const flipped = join(root, 'flipped.db');
  const b = readFileSync(FIXTURE);
  b[5000] = b[5000]! ^ 1;
  writeFileSync(flipped, b);
  const bad = await inspectSnapshot(flipped);
  assert.ok(!bad.ok && bad.reason === 'SnapshotCorrupt' && bad.message.includes('expected sha256'), JSON.stringify(bad));
  const cut = join(root, 'cut.db');
  writeFileSync(cut, readFileSync(FIXTURE).subarray(0, 4096));
  const truncated = await inspectSnapshot(cut);
  assert.ok(!truncated.ok && truncated.reason === 'SnapshotCorrupt', JSON.stringify(truncated));
});

/** Serves `file` at /restore/ns/demo to holders of `token`. */
async function serve(file: string, token: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(403).end('no');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/restore/ns/demo`, close: () => new Promise((r) => server.close(() => r())) };
}

/** Runs the script as the init container would (asynchronously: the test's server must answer meanwhile). */
function runScript(dataDir: string, state: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const flags = ['--name', 'demo-0', '--initial-cluster', 'demo-0=http://127.0.0.1:2380', '--initial-cluster-token', 'demo-tok', '--initial-advertise-peer-urls', 'http://127.0.0.1:2380'];
  const child = spawn(process.execPath, ['-e', RESTORE_SCRIPT, '--', dataDir, state, ...flags], { env: { ...process.env, KVSTORECTL_MAIN: CTL_MAIN, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  registry.track(child);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (out += s));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

void test('the restore init script: fetches with the token, checks the trailer, restores with kvstorectl; skips data and joiners', async () => {
  const s = await serve(FIXTURE, 'tok');
  try {
    const env = { [RESTORE_URL_ENV]: s.url, [RESTORE_TOKEN_ENV]: 'tok', [RESTORE_SHA256_ENV]: trailer(FIXTURE) };
    const dir = join(root, 'm0', 'data');
    mkdirSync(join(root, 'm0'), { recursive: true });
    const first = await runScript(dir, 'new', env);
    assert.equal(first.code, 0, first.out);
    assert.ok(existsSync(join(dir, 'member', 'snap', 'db')) && existsSync(join(dir, 'member', 'wal')), first.out);
    assert.ok(!existsSync(`${dir}.snapshot`), 'the downloaded file is removed');
    const again = await runScript(dir, 'new', env);
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, /skipped/);

    const joiner = await runScript(join(root, 'm1', 'data'), 'existing', env);
    assert.equal(joiner.code, 0, joiner.out);
    assert.ok(!existsSync(join(root, 'm1', 'data')));

    mkdirSync(join(root, 'm2'), { recursive: true });
    const wrong = await runScript(join(root, 'm2', 'data'), 'new', { ...env, [RESTORE_SHA256_ENV]: '0'.repeat(64) });
    assert.equal(wrong.code, 1, wrong.out);
    assert.match(wrong.out, /SHA-256 trailer/);
    assert.ok(!existsSync(join(root, 'm2', 'data')) && !existsSync(join(root, 'm2', 'data.snapshot')));

    const denied = await runScript(join(root, 'm2', 'data'), 'new', { ...env, [RESTORE_TOKEN_ENV]: 'other' });
    assert.equal(denied.code, 1, denied.out);
    assert.match(denied.out, /HTTP 403/);
  } finally {
    await s.close();
  }
});

void test('GET /restore answers: token from the StatefulSet, file from status.restore, only inside the namespace directory', async () => {
  const snapDir = join(root, 'snapshots');
  mkdirSync(join(snapDir, 'default'), { recursive: true });
  mkdirSync(join(snapDir, 'other'), { recursive: true });
  const file = join(snapDir, 'default', 'a.db');
  copyFileSync(FIXTURE, file);
  const c = cluster({ restoreFrom: { path: 'a.db' } });
  const seed = { url: restoreURLOf('http://op.kvstore-system.svc:8080/', c), sha256: trailer(FIXTURE), token: 'secret-token' };
  assert.equal(seed.url, 'http://op.kvstore-system.svc:8080/restore/default/demo');
  const sts = buildStatefulSet(c, { members: 3, version: '3.4.0', restore: seed });
  assert.equal(sts.spec?.template.spec?.initContainers?.[0]?.name, 'restore');
  assert.deepEqual(storedTemplate(sts as never).restore, seed, 'kept across template changes');
  assert.deepEqual(storedRestore(sts.spec?.template.spec?.initContainers), seed);
  const plain = buildStatefulSet(c, { members: 3, version: '3.4.0' });
  assert.equal(plain.spec?.template.spec?.initContainers, undefined);

  const kube = new MemoryKubeClient();
  await kube.create({ ...(sts as unknown as KubeObject), metadata: { name: 'demo', namespace: 'default' } });
  const kvs = { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo', namespace: 'default' }, spec: c.spec, status: { restore: { file } } };
  await kube.create(kvs as unknown as KubeObject);
  const dirs = { snapshotDir: snapDir, backupDir: join(snapDir, 'backups') };
  const status = async (auth: string | undefined, ns = 'default'): Promise<number> => (await serveRestore(kube, dirs, ns, 'demo', auth)).status;
  assert.equal(await status(undefined), 401);
  assert.equal(await status('Bearer nope'), 403);
  assert.equal(await status('Bearer secret-token', 'other'), 404);
  const ok = await serveRestore(kube, dirs, 'default', 'demo', 'Bearer secret-token');
  assert.equal(ok.status, 200);
  assert.equal(ok.size, readFileSync(FIXTURE).length);
  // A status naming a file of another namespace is not served.
  copyFileSync(FIXTURE, join(snapDir, 'other', 'b.db'));
  await kube.replace({ ...kvs, status: { restore: { file: join(snapDir, 'other', 'b.db') } } } as unknown as KubeObject);
  assert.equal(await status('Bearer secret-token'), 403);

  // The Kubernetes snapshot check: paths stay in the namespace's directory; off without a URL.
  const inspector = kubeRestoreInspector(kube, dirs, true);
  assert.equal((await inspector.check(c)).ok, true);
  const outside = await inspector.check(cluster({ restoreFrom: { path: join(snapDir, 'other', 'b.db') } }));
  assert.ok(!outside.ok && outside.reason === 'SnapshotMissing', JSON.stringify(outside));
  const off = await kubeRestoreInspector(kube, dirs, false).check(c);
  assert.ok(!off.ok && off.reason === 'RestoreUnsupported');
  const noBackup = await inspector.check(cluster({ restoreFrom: { backup: { cluster: 'absent' } } }));
  assert.ok(!noBackup.ok && noBackup.reason === 'BackupNotFound', JSON.stringify(noBackup));
});

void test('local mode: restoreFrom.path from the manifest\'s directory; backup = the sibling manifest\'s status.backups', async () => {
  const dir = join(root, 'local');
  mkdirSync(join(dir, 'snaps'), { recursive: true });
  copyFileSync(FIXTURE, join(dir, 'snaps', 'a-1.db'));
  const sha = trailer(FIXTURE);
  writeFileSync(join(dir, 'src.yaml'), `apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: src
spec:
  version: 3.4.0
status:
  backups:
    lastSuccess: { name: a-1.db, uri: ${join(dir, 'snaps', 'a-1.db')}, time: "2026-03-01T02:00:00Z", revision: 3, sha256: "${sha}", size: 1, member: src-0 }
    retained:
      - { name: a-1.db, uri: ${join(dir, 'snaps', 'a-1.db')}, time: "2026-03-01T02:00:00Z", size: 1 }
      - { name: a-0.db, uri: a-0.db, time: "2026-03-01T01:00:00Z", size: 1 }
      - { name: a-2.db, uri: a-2.db, time: "2026-03-01T00:00:00Z", size: 1 }
`);
  const inspector = localRestoreInspector(join(dir, 'dst.yaml'));
  const local = (restoreFrom: object): KvstoreCluster => ({ ...cluster(), metadata: { name: 'dst' }, spec: { ...cluster().spec, restoreFrom } }) as KvstoreCluster;
  const byPath = await inspector.check(local({ path: 'snaps/a-1.db' }));
  assert.ok(byPath.ok && byPath.facts.file === join(dir, 'snaps', 'a-1.db'), JSON.stringify(byPath));
  const latest = await inspector.check(local({ backup: { cluster: 'src' } }));
  assert.ok(latest.ok && latest.recorded?.sha256 === sha && latest.facts.sha256 === sha, JSON.stringify(latest));
  const named = await inspector.check(local({ backup: { cluster: 'src', name: 'a-0.db' } }));
  assert.ok(!named.ok && named.reason === 'SnapshotMissing' && named.message.includes(join(dir, 'src.kvstore', 'backups', 'a-0.db')), JSON.stringify(named));
  // A relative uri is inside the source's backup directory (<cluster>.kvstore/backups by default).
  mkdirSync(join(dir, 'src.kvstore', 'backups'), { recursive: true });
  copyFileSync(FIXTURE, join(dir, 'src.kvstore', 'backups', 'a-2.db'));
  const relative = await inspector.check(local({ backup: { cluster: 'src', name: 'a-2.db' } }));
  assert.ok(relative.ok && relative.facts.file === join(dir, 'src.kvstore', 'backups', 'a-2.db') && relative.recorded?.sha256 === undefined, JSON.stringify(relative));
  const unknown = await inspector.check(local({ backup: { cluster: 'src', name: 'zzz.db' } }));
  assert.ok(!unknown.ok && unknown.reason === 'BackupNotFound', JSON.stringify(unknown));
  const nocluster = await inspector.check(local({ backup: { cluster: 'nobody' } }));
  assert.ok(!nocluster.ok && nocluster.reason === 'BackupNotFound' && nocluster.message.includes('does not exist'), JSON.stringify(nocluster));
});

void test('the namespace\'s restore directories: snapshot dir, backup dir, staging; no way out by .. or symlinks', async () => {
  const dirs = { snapshotDir: '/v/snap', backupDir: '/v/snap/backups' };
  const table: [string, string, boolean][] = [
    ['default', '/v/snap/default/a.db', true],
    ['default', '/v/snap/default/sub/a.db', true],
    ['default', '/v/snap/backups/default/nightly/b.db', true],
    ['default', '/v/snap/backups/.staging/default/restore/dst/b.db', true],
    ['default', '/v/snap/default', false],
    ['default', '/v/snap/other/a.db', false],
    ['default', '/v/snap/default/../other/a.db', false],
    ['default', '/v/snap/backups/other/b.db', false],
    ['default', '/v/snap/backups/.staging/other/b.db', false],
    ['default', '/v/snap/.rehearsals/default-x/m.db', false],
    // A namespace called `backups` has <snapshot dir>/backups as its snapshot dir: the backup volume stays out.
    ['backups', '/v/snap/backups/default/b.db', false],
    ['backups', '/v/snap/backups/backups/b.db', true],
  ];
  for (const [ns, file, want] of table) assert.equal(mayRestoreFrom(dirs, ns, file), want, `${ns} ${file}`);
  assert.equal(mayRestoreFrom({ snapshotDir: '/v/snap', backupDir: '/v/bk' }, 'default', '/v/bk/default/b.db'), true);

  const base = join(root, 'contain');
  const real = { snapshotDir: join(base, 'snap'), backupDir: join(base, 'snap', 'backups') };
  for (const d of ['snap/default', 'snap/other', 'snap/backups/default']) mkdirSync(join(base, d), { recursive: true });
  copyFileSync(FIXTURE, join(base, 'snap', 'other', 'b.db'));
  copyFileSync(FIXTURE, join(base, 'snap', 'backups', 'default', 'c.db'));
  symlinkSync(join(base, 'snap', 'other', 'b.db'), join(base, 'snap', 'default', 'link.db'));
  symlinkSync(join(base, 'snap', 'other'), join(base, 'snap', 'default', 'sub'));
  symlinkSync(join(base, 'snap', 'backups', 'default', 'c.db'), join(base, 'snap', 'default', 'inside.db'));
  const contained = async (file: string): Promise<boolean> => (await containedFile(real, 'default', file)).ok;
  assert.equal(await contained(join(base, 'snap', 'backups', 'default', 'c.db')), true);
  assert.equal(await contained(join(base, 'snap', 'default', 'inside.db')), true, 'a symlink to an allowed file');
  assert.equal(await contained(join(base, 'snap', 'default', 'link.db')), false, 'a symlink out');
  assert.equal(await contained(join(base, 'snap', 'default', 'sub', 'b.db')), false, 'a directory symlink out');
  assert.equal(await contained(join(base, 'snap', 'default', 'missing.db')), true, 'missing: the check reports it');

  // The Kubernetes check and route: a directory backup of the namespace's cluster; not another namespace's.
  const kube = new MemoryKubeClient();
  const c = cluster({ restoreFrom: { backup: { cluster: 'src' } } });
  const seed = { url: restoreURLOf('http://op:8080', c), sha256: trailer(FIXTURE), token: 'tok' };
  const sts = buildStatefulSet(c, { members: 1, version: '3.4.0', restore: seed });
  await kube.create({ ...(sts as unknown as KubeObject), metadata: { name: 'demo', namespace: 'default' } });
  const record = (uri: string) => ({ name: 'src-20260301T020000Z.db', uri, time: '2026-03-01T02:00:00Z', revision: 1, sha256: trailer(FIXTURE), size: 1, member: 'src-0' });
  const src = { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'src', namespace: 'default' }, spec: c.spec, status: { backups: { lastSuccess: record(join(real.backupDir, 'default', 'c.db')), retained: [] } } };
  await kube.create(src as unknown as KubeObject);
  const inspector = kubeRestoreInspector(kube, real, true);
  const fromBackup = await inspector.check(c);
  assert.ok(fromBackup.ok && fromBackup.facts.file === join(real.backupDir, 'default', 'c.db') && fromBackup.recorded?.sha256 === trailer(FIXTURE), JSON.stringify(fromBackup));
  await kube.replace({ ...src, status: { backups: { lastSuccess: record('c.db'), retained: [] } } } as unknown as KubeObject);
  const relative = await inspector.check(c);
  assert.ok(relative.ok && relative.facts.file === join(real.backupDir, 'default', 'c.db'), JSON.stringify(relative));
  await kube.replace({ ...src, status: { backups: { lastSuccess: record(join(base, 'snap', 'other', 'b.db')), retained: [] } } } as unknown as KubeObject);
  const elsewhere = await inspector.check(c);
  assert.ok(!elsewhere.ok && elsewhere.reason === 'SnapshotMissing', JSON.stringify(elsewhere));
  await kube.replace({ ...src, status: { backups: { lastSuccess: record('../other/b.db'), retained: [] } } } as unknown as KubeObject);
  const dotdot = await inspector.check(c);
  assert.ok(!dotdot.ok && dotdot.reason === 'SnapshotMissing', JSON.stringify(dotdot));

  const kvs = { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo', namespace: 'default' }, spec: c.spec, status: { restore: { file: join(real.backupDir, 'default', 'c.db') } } };
  await kube.create(kvs as unknown as KubeObject);
  assert.equal((await serveRestore(kube, real, 'default', 'demo', 'Bearer tok')).status, 200);
  await kube.replace({ ...kvs, status: { restore: { file: join(base, 'snap', 'default', 'link.db') } } } as unknown as KubeObject);
  assert.equal((await serveRestore(kube, real, 'default', 'demo', 'Bearer tok')).status, 403, 'a symlink out is not served');
});
