/**
 * Local mode's files without processes: the manifest (validation, defaults, generation, status
 * written back with the user's comments and spec intact), the snapshot directory (paths,
 * pruning oldest first), the state file (atomic round trip), the layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, utimesSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { KvstoreClusterStatus } from '../../../operator/api/types.js';
import { LocalLayout } from '../../../operator/runtime/local/layout.js';
import { ManifestFile } from '../../../operator/runtime/local/manifest-file.js';
import { SnapshotDir } from '../../../operator/runtime/local/snapshot-dir.js';
import { readState, writeState } from '../../../operator/runtime/local/state-file.js';
import { makeTempDir } from '../../support/processes.js';

const MANIFEST = `# my cluster
apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: demo
spec:
  size: 3 # three members
  version: 3.4.0
`;

const status: KvstoreClusterStatus = {
  phase: 'Running', observedGeneration: 1, clusterVersion: '3.4.0', readyMembers: '3/3',
  members: [{ name: 'demo-0', id: '0000000000000001', version: '3.4.0', healthy: true, leader: true, clientURL: 'http://127.0.0.9:1234' }],
  conditions: [],
};

void test('manifest: defaults applied, generation raised only when the spec changes', async () => {
  const dir = makeTempDir('manifest');
  const file = join(dir, 'c.yaml');
  writeFileSync(file, MANIFEST);
  const m = new ManifestFile(file);
  const a = await m.load();
  assert.ok(a.ok, JSON.stringify(a));
  assert.equal(a.value.spec.upgrade.v2WaitSeconds, 120);
  assert.equal(a.value.spec.upgrade.snapshot.volume, 'snapshots');
  assert.equal(a.value.metadata.generation, 1);
  const same = await m.load();
  assert.ok(same.ok && same.value.metadata.generation === 1);
  writeFileSync(file, MANIFEST.replace('3.4.0', '3.5.0'));
  const b = await m.load();
  assert.ok(b.ok && b.value.metadata.generation === 2 && b.value.spec.version === '3.5.0');
});

void test('manifest: spec.tls and spec.storage are fixed once loaded (the last good manifest stays in force)', async () => {
  const dir = makeTempDir('manifest');
  const file = join(dir, 'c.yaml');
  const withTls = MANIFEST.replace('  version: 3.4.0\n', '  version: 3.4.0\n  tls:\n    client: {}\n    operator: {}\n');
  writeFileSync(file, withTls);
  const m = new ManifestFile(file);
  assert.ok((await m.load()).ok);
  writeFileSync(file, MANIFEST);
  const dropped = await m.load();
  assert.equal(dropped.ok, false);
  assert.match(dropped.ok ? '' : dropped.error, /spec\.tls is immutable/);
  writeFileSync(file, withTls.replace('  version: 3.4.0\n', '  version: 3.4.0\n  storage:\n    size: 2Gi\n'));
  const grown = await m.load();
  assert.match(grown.ok ? '' : grown.error, /spec\.storage is immutable/);
  writeFileSync(file, withTls.replace('3.4.0', '3.5.0'));
  const next = await m.load();
  assert.ok(next.ok && next.value.spec.version === '3.5.0' && next.value.spec.tls?.client !== undefined);
});

void test('manifest: an invalid file is a value naming the field', async () => {
  const dir = makeTempDir('manifest');
  const file = join(dir, 'c.yaml');
  writeFileSync(file, MANIFEST.replace('size: 3', 'size: 4'));
  const r = await new ManifestFile(file).load();
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.error, /spec\.size/);
  const missing = await new ManifestFile(join(dir, 'nope.yaml')).load();
  assert.equal(missing.ok, false);
});

void test('manifest: the status is written into the file; comments and spec stay; the status is read back', async () => {
  const dir = makeTempDir('manifest');
  const file = join(dir, 'c.yaml');
  writeFileSync(file, MANIFEST);
  const m = new ManifestFile(file);
  assert.deepEqual(await m.writeStatus(status), { ok: true, value: undefined });
  const text = readFileSync(file, 'utf8');
  assert.ok(text.startsWith(MANIFEST), text);
  assert.match(text, /status:\n {2}phase: Running/);
  const again = await m.load();
  assert.ok(again.ok);
  assert.deepEqual(again.value.status, status);
  await m.writeStatus({ ...status, phase: 'Upgrading' });
  const text2 = readFileSync(file, 'utf8');
  assert.ok(text2.startsWith(MANIFEST));
  assert.equal(text2.match(/^status:/gm)?.length, 1);
  assert.match(text2, /phase: Upgrading/);
});

void test('manifest: a file caught mid-edit (empty, or not a cluster) is never written over', async () => {
  const dir = makeTempDir('manifest');
  const file = join(dir, 'c.yaml');
  const m = new ManifestFile(file);
  for (const text of ['', 'apiVersion: kvstore.io/v1alpha1\nkind: KvstoreCluster\n', 'a: [1, 2\n']) {
    writeFileSync(file, text);
    const r = await m.writeStatus(status);
    assert.equal(r.ok, false, JSON.stringify(text));
    assert.equal(readFileSync(file, 'utf8'), text);
  }
});

void test('snapshot dir: paths under the cluster dir, list oldest first, prune keeps the newest', async () => {
  const dir = makeTempDir('snapdir');
  const layout = new LocalLayout(join(dir, 'c.yaml'), 'demo');
  const store = new SnapshotDir(layout);
  writeFileSync(join(dir, 'c.yaml'), MANIFEST);
  const c = await new ManifestFile(join(dir, 'c.yaml')).load();
  assert.ok(c.ok);
  assert.equal(store.pathOf(c.value, 'demo-a.db'), join(dir, 'demo.kvstore', 'snapshots', 'demo-a.db'));
  const snap = (n: number): string => `demo-3.4.0-to-3.5.0-2026010${n}T000000Z.db`;
  assert.deepEqual(await store.list(c.value), { ok: true, value: [] });
  assert.deepEqual(await store.prepare(c.value), { ok: true, value: undefined });
  const names = [snap(1), snap(2), snap(3), 'other-3.4.0-to-3.5.0-20260101T000000Z.db', `${snap(4)}.part`];
  names.forEach((n, i) => {
    const p = store.pathOf(c.value, n);
    writeFileSync(p, n);
    utimesSync(p, 1000 + i, 1000 + i);
  });
  const listed = await store.list(c.value);
  assert.ok(listed.ok);
  assert.deepEqual(listed.value.map((p) => p.slice(p.lastIndexOf('/') + 1)), [snap(1), snap(2), snap(3)]);
  const pruned = await store.prune(c.value, 2);
  assert.ok(pruned.ok && pruned.value.length === 1 && pruned.value[0].endsWith(snap(1)));
  assert.deepEqual(readdirSync(join(dir, 'demo.kvstore', 'snapshots')).sort(), [snap(2), snap(3), `${snap(4)}.part`, 'other-3.4.0-to-3.5.0-20260101T000000Z.db']);
});

void test('state file: missing = empty, atomic round trip', async () => {
  const dir = makeTempDir('state');
  const file = join(dir, 'x', 'state.json');
  const empty = await readState(file);
  assert.ok(empty.ok && empty.value.replicas === 0);
  const st = { templateVersion: '3.4.0', replicas: 3, token: 't', members: { 'demo-0': { host: '127.0.0.5', clientPort: 1, peerPort: 2, version: '3.4.0', join: 'new' as const } } };
  assert.deepEqual(await writeState(file, st), { ok: true, value: undefined });
  assert.deepEqual(await readState(file), { ok: true, value: st });
  assert.deepEqual(readdirSync(join(dir, 'x')), ['state.json']);
});
