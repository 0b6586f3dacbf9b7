/**
 * Users, roles and the enabled flag travel in snapshots both ways with etcd 3.4 (buckets
 * `auth`, `authUsers`, `authRoles` in etcd's record formats, server/auth/FORMAT.md):
 * - an etcd snapshot restored by `kvstorectl snapshot restore` gives a kvstore member with
 *   auth enabled, the same users (passwords included: etcd's bcrypt hashes check) and roles;
 * - a kvstore snapshot restored by `etcdctl snapshot restore` gives an etcd member with the same.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ctlFor, etcdctl, makeTempDir, reserveAddress, startMember, type Member, type ServerKind } from '../support/processes.js';
import { kvstorectl } from '../unit/ctl/support/kvstorectl-runner.js';

const ROOT = '--user=root:rootpw';
const ALICE = '--user=alice:alicepw';

async function populate(m: Member): Promise<void> {
  const ctl = ctlFor(m);
  await ctl.ok(['user', 'add', 'root', '--new-user-password=rootpw']);
  await ctl.ok(['user', 'grant-role', 'root', 'root']);
  await ctl.ok(['user', 'add', 'alice', '--new-user-password=alicepw']);
  await ctl.ok(['role', 'add', 'reader']);
  await ctl.ok(['role', 'grant-permission', 'reader', 'read', 'pub/', '--prefix']);
  await ctl.ok(['role', 'grant-permission', 'reader', 'readwrite', 'own']);
  await ctl.ok(['user', 'grant-role', 'alice', 'reader']);
  await ctl.ok(['put', 'pub/a', '1']);
  await ctl.ok(['auth', 'enable']);
}

/** What the restored member says about its auth state. */
async function observe(m: Member): Promise<string[]> {
  const ctl = ctlFor(m);
  return [
    await ctl.ok(['user', 'list', ROOT]),
    await ctl.ok(['user', 'get', 'alice', ROOT]),
    await ctl.ok(['role', 'get', 'reader', ROOT]),
    await ctl.ok(['get', 'pub/a', '--print-value-only', ALICE]),
    (await ctl.fails(['get', 'pub/a'])).stderr.split('\n').find((l) => l.startsWith('Error:')) ?? '',
    (await ctl.fails(['put', 'pub/a', 'x', ALICE])).stderr.split('\n').find((l) => l.startsWith('Error:')) ?? '',
  ];
}

async function restoreAndStart(kind: ServerKind, file: string): Promise<Member> {
  const address = await reserveAddress(`restored-${kind}`);
  const dataDir = join(makeTempDir('auth-restore'), `${address.name}.data`);
  const args = [
    'snapshot', 'restore', file, `--name=${address.name}`, `--initial-cluster=${address.name}=${address.peerUrl}`,
    '--initial-cluster-token=auth-restore', `--initial-advertise-peer-urls=${address.peerUrl}`, `--data-dir=${dataDir}`,
  ];
  const r = kind === 'kvstore' ? await kvstorectl('127.0.0.1:1', args) : await etcdctl('127.0.0.1:1', args);
  assert.equal(r.code, 0, r.stderr);
  return startMember(kind, { address, dataDir, args: ['--initial-cluster-token=auth-restore'] });
}

async function roundTrip(from: ServerKind, to: ServerKind): Promise<{ before: string[]; after: string[] }> {
  const source = await startMember(from, {});
  const file = join(makeTempDir('auth-snap'), `${from}.db`);
  try {
    await populate(source);
    await ctlFor(source).ok(['snapshot', 'save', file, ROOT]);
    const before = await observe(source);
    const restored = await restoreAndStart(to, file);
    try {
      return { before, after: await observe(restored) };
    } finally {
      await restored.kill9();
    }
  } finally {
    await source.kill9();
  }
}

void describe('auth state in snapshots, both ways with etcd 3.4', () => {
  void it('etcd snapshot → kvstorectl snapshot restore → kvstore', async () => {
    const { before, after } = await roundTrip('etcd', 'kvstore');
    assert.deepEqual(after, before);
    assert.equal(before[4], 'Error: etcdserver: user name is empty');
  });

  void it('kvstore snapshot → etcdctl snapshot restore → etcd', async () => {
    const { before, after } = await roundTrip('kvstore', 'etcd');
    assert.deepEqual(after, before);
    assert.equal(before[5], 'Error: etcdserver: permission denied');
  });
});
