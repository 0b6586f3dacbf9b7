/**
 * A kvstore member starts on a data dir made by `etcdctl snapshot restore` (etcd's own WAL and
 * bbolt backend; issue 30, etcd e2e 6361's sequence): a real etcd 3.4 with keys over several
 * revisions and a lease → `etcdctl snapshot save` → `etcdctl snapshot restore` twice with the
 * same flags (two identical dirs) → real etcd started on one dir tells what it serves and which
 * ids it holds, then kvstore is started on the other at the same address: same keys, values,
 * create/mod revisions, lease with its keys, cluster id, member id and member list. Then
 * `etcdctl member add` of a second kvstore member started with --initial-cluster-state
 * existing: it joins and serves the data.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ctlFor, etcdctl, eventually, initialClusterOf, makeTempDir, memberList, reserveAddress, startEtcd, startMember,
  type Member, type MemberAddress, type MemberEntry,
} from '../support/processes.js';

/** The `"kvs":[…],"count":N}` tail of a `get -w json` answer. */
function kvsPart(json: string): string {
  const at = json.indexOf('"kvs":');
  return at < 0 ? '(no kvs)' : json.slice(at).trim();
}

/** A numeric header field, as its exact digits (ids are 64-bit: no JSON.parse). */
function headerField(json: string, field: string): string {
  const m = new RegExp(`"${field}":(\\d+)`).exec(json);
  assert.ok(m, `${field} in ${json}`);
  return m[1];
}

interface Served {
  readonly kvs: string;
  readonly revision: string;
  readonly clusterId: string;
  readonly memberId: string;
  readonly members: readonly MemberEntry[];
}

async function served(m: Member): Promise<Served> {
  const got = await ctlFor(m).ok(['get', 'data/', '--prefix', '-w', 'json']);
  const members = (await memberList(m.endpoint)).map((e) => ({ ...e, clientURLs: [] }));
  return { kvs: kvsPart(got), revision: headerField(got, 'revision'), clusterId: headerField(got, 'cluster_id'), memberId: headerField(got, 'member_id'), members };
}

void describe('kvstore starts on a data dir made by etcdctl snapshot restore', () => {
  let kv: Member | undefined;
  let second: Member | undefined;
  let address: MemberAddress;
  let dirs: { kvstore: string; etcd: string };
  let original = '';
  let leaseId = '';
  let asEtcd: Served;

  before(async () => {
    const etcd = await startEtcd();
    const ctl = ctlFor(etcd);
    for (let i = 0; i < 5; i++) await ctl.ok(['put', `data/k${i}`, `v${i}`]);
    for (let i = 0; i < 3; i++) await ctl.ok(['put', `data/k${i}`, `w${i}`]);
    await ctl.ok(['del', 'data/k4']);
    leaseId = /lease ([0-9a-f]+) granted/.exec(await ctl.ok(['lease', 'grant', '900']))![1];
    await ctl.ok(['put', '--lease', leaseId, 'data/leased', 'l']);
    original = kvsPart(await ctl.ok(['get', 'data/', '--prefix', '-w', 'json']));
    const root = makeTempDir('etcd-data-dir');
    const file = join(root, 'snap.db');
    await ctl.ok(['snapshot', 'save', file]);
    await etcd.stop();

    address = await reserveAddress('m1');
    dirs = { kvstore: join(root, 'kvstore.data'), etcd: join(root, 'etcd.data') };
    for (const dir of [dirs.kvstore, dirs.etcd]) {
      const r = await etcdctl('127.0.0.1:1', [
        'snapshot', 'restore', file, '--data-dir', dir, '--name', address.name, '--initial-cluster', initialClusterOf([address]),
        '--initial-advertise-peer-urls', address.peerUrl,
      ]);
      assert.equal(r.code, 0, r.stderr);
    }
    const reference = await startMember('etcd', { address, dataDir: dirs.etcd });
    asEtcd = await served(reference);
    await reference.stop();
    kv = await startMember('kvstore', { address, dataDir: dirs.kvstore });
  });

  after(async () => {
    await second?.stop();
    await kv?.stop();
  });

  void it('serves the keys with their values and create/mod revisions, as etcd does on the same dir', async () => {
    const got = await served(kv!);
    assert.equal(asEtcd.kvs, original);
    assert.equal(got.kvs, original);
    assert.equal(got.revision, asEtcd.revision);
  });

  void it('keeps the cluster id, the member id and the member list that etcdctl restore chose', async () => {
    const got = await served(kv!);
    assert.equal(got.clusterId, asEtcd.clusterId);
    assert.equal(got.memberId, asEtcd.memberId);
    assert.deepEqual(got.members, asEtcd.members);
    assert.equal(BigInt(got.memberId).toString(16), asEtcd.members[0]!.id);
  });

  void it('keeps the lease with its key', async () => {
    const ctl = ctlFor(kv!);
    assert.match(await ctl.ok(['lease', 'list']), new RegExp(leaseId));
    assert.match(await ctl.ok(['lease', 'timetolive', leaseId, '--keys']), /attached keys\(\[data\/leased\]\)/);
  });

  void it('keeps etcd\'s originals beside the converted data', () => {
    assert.ok(existsSync(join(dirs.kvstore, 'member', 'snap', 'db.etcd')));
    assert.ok(existsSync(join(dirs.kvstore, 'member', 'wal.etcd')));
  });

  void it('member add + a second kvstore member started with --initial-cluster-state existing joins', async () => {
    const a2 = await reserveAddress('m2');
    await ctlFor(kv!).ok(['member', 'add', a2.name, `--peer-urls=${a2.peerUrl}`]);
    second = await startMember('kvstore', { address: a2, initialCluster: initialClusterOf([address, a2]), initialClusterState: 'existing' });
    await ctlFor(kv!).ok(['put', 'data/after', 'joined']);
    const seen = await eventually('data/after on m2', async () => {
      const g = await ctlFor(second!).ok(['get', 'data/after', '--print-value-only', '--consistency=s']);
      return g.trim() === 'joined' ? g : undefined;
    });
    assert.equal(seen.trim(), 'joined');
    assert.match(await ctlFor(second!).ok(['get', 'data/k0', '--print-value-only']), /w0/);
    const list = await memberList(second.endpoint);
    assert.deepEqual(list.map((m) => m.name).sort(), ['m1', 'm2']);
  });

  void it('the joined member takes the cluster version from the image it was caught up with, and says so as etcd does', async () => {
    // It joined by a state image (the restored log starts after the restore's index): the image's
    // cluster version is adopted at install, with etcd's "enabled capabilities for version" line.
    assert.match(second!.logs(), /"msg":"received database snapshot"/);
    const clusterOf = async (m: Member): Promise<string> => ((await (await fetch(`${m.clientUrl}/version`)).json()) as { etcdcluster: string }).etcdcluster;
    const decided = await clusterOf(kv!);
    assert.match(decided, /^3\.\d\.0$/);
    assert.equal(await clusterOf(second!), decided);
    const minor = decided.slice(0, -2).replace('.', '\\.');
    assert.match(second!.logs(), new RegExp(`"msg":"enabled capabilities for version".*"cluster-version":"${minor}"`));
    assert.match(kv!.logs(), /"msg":"enabled capabilities for version"/, 'the restored member logs it at its start too');
  });
});
