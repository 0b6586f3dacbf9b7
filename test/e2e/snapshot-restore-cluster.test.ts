/**
 * Whole-cluster restore: a real etcd 3.4 member holding keys (overwritten, deleted, written in
 * one multi-op txn, attached to a lease) and a compaction → `etcdctl snapshot save` → the same
 * file restored by `kvstorectl snapshot restore` into 3 data dirs → 3 kvstore members started on
 * them form one cluster with a new identity, and every member serves every key exactly as etcd
 * did (same kvs, same revision), the lease with its keys, the compaction; writes go on from
 * the snapshot's revision. A second restore into an existing data dir is refused.
 * Then the safety net of an upgrade: a snapshot saved from the leader of a 3-member kvstore
 * cluster, restored on 3 new data dirs, gives a new 3-member cluster with the same data.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ctlFor, etcdctl, eventually, initialClusterOf, makeTempDir, memberList, reserveAddress, startCluster, startEtcd, startMember, waitForLeader, type Member,
} from '../support/processes.js';
import { kvstorectl } from '../unit/ctl/support/kvstorectl-runner.js';

const TOKEN = 'restored-cluster';

/** The `"kvs":[…],"count":N}` tail of a `get -w json` answer (the header names the member). */
function kvsPart(json: string): string {
  const at = json.indexOf('"kvs":');
  return at < 0 ? '(no kvs)' : json.slice(at).trim();
}

function revisionOf(json: string): number {
  const m = /"revision":(\d+)/.exec(json);
  assert.ok(m, json);
  return Number(m[1]);
}

/** Restores `file` into one new data dir per name and starts a kvstore member on each. */
async function restoreCluster(file: string, names: readonly string[]): Promise<{ members: Member[]; dirs: string[] }> {
  const addresses = [];
  for (const name of names) addresses.push(await reserveAddress(name));
  const cluster = initialClusterOf(addresses);
  const root = makeTempDir('restore-dirs');
  const dirs: string[] = [];
  for (const a of addresses) {
    const dataDir = join(root, `${a.name}.kvstore`);
    dirs.push(dataDir);
    const r = await kvstorectl('127.0.0.1:1', [
      'snapshot', 'restore', file, '--name', a.name, '--initial-cluster', cluster, '--initial-cluster-token', TOKEN,
      '--initial-advertise-peer-urls', a.peerUrl, '--data-dir', dataDir,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /"msg":"restored snapshot"/);
  }
  const members = await Promise.all(
    addresses.map((address, i) => startMember('kvstore', { address, initialCluster: cluster, dataDir: dirs[i], args: [`--initial-cluster-token=${TOKEN}`] })),
  );
  await waitForLeader(members);
  return { members, dirs };
}

void describe('real etcd 3.4 snapshot → kvstorectl snapshot restore → 3 kvstore members', () => {
  let etcd: Member;
  let file = '';
  let etcdKvs = '';
  let etcdRevision = 0;
  let etcdClusterId = '';
  let leaseId = '';
  let compactRev = 0;
  let members: Member[] = [];
  let dirs: string[] = [];

  before(async () => {
    etcd = await startEtcd();
    const ctl = ctlFor(etcd);
    for (let i = 0; i < 40; i++) await ctl.ok(['put', `restore/k${String(i).padStart(2, '0')}`, `value-${i}`]);
    for (let i = 0; i < 10; i++) await ctl.ok(['put', `restore/k${String(i).padStart(2, '0')}`, `second-${i}`]);
    leaseId = /lease ([0-9a-f]+) granted/.exec(await ctl.ok(['lease', 'grant', '600']))![1];
    await ctl.ok(['put', '--lease', leaseId, 'restore/leased/a', 'la']);
    await ctl.ok(['put', '--lease', leaseId, 'restore/leased/b', 'lb']);
    await ctl.ok(['del', 'restore/k3']);
    await ctl.ok(['del', '--prefix', 'restore/k2']);
    await ctl.ok(['txn'], { input: '\n\nput restore/txn/x x1\nput restore/txn/y y1\ndel restore/k10\n\n' });
    compactRev = await ctl.revision();
    await ctl.ok(['compaction', String(compactRev)]);
    for (let i = 0; i < 5; i++) await ctl.ok(['put', `restore/after/${i}`, `after-${i}`]);
    await ctl.ok(['del', 'restore/after/0']);
    const all = await ctl.ok(['get', '', '--prefix', '-w', 'json']);
    etcdKvs = kvsPart(all);
    etcdRevision = revisionOf(all);
    etcdClusterId = /"cluster_id":(\d+)/.exec(all)![1];
    file = join(makeTempDir('restore-snap'), 'etcd.db');
    await ctl.ok(['snapshot', 'save', file]);
    await etcd.stop();
    ({ members, dirs } = await restoreCluster(file, ['r1', 'r2', 'r3']));
  });

  after(async () => {
    await Promise.all(members.map((m) => m.stop()));
  });

  void it('every member serves every key as etcd did, at the same revision', async () => {
    for (const m of members) {
      for (const consistency of ['s', 'l']) {
        const got = await ctlFor(m).ok(['get', '', '--prefix', '-w', 'json', `--consistency=${consistency}`]);
        assert.equal(revisionOf(got), etcdRevision, `revision through ${m.name} (${consistency})`);
        assert.equal(kvsPart(got), etcdKvs, `kvs through ${m.name} (${consistency})`);
      }
    }
  });

  void it('the cluster has a new identity: the 3 restored members, another cluster id', async () => {
    const list = await eventually('3 started members', async () => {
      const l = await memberList(members[0].endpoint);
      return l.length === 3 && l.every((x) => x.name !== '') ? l : undefined;
    });
    assert.deepEqual(list.map((x) => x.name).sort(), ['r1', 'r2', 'r3']);
    const header = await ctlFor(members[1]).ok(['get', 'x', '-w', 'json']);
    assert.notEqual(/"cluster_id":(\d+)/.exec(header)![1], etcdClusterId);
  });

  void it('keeps the lease with its keys and the compaction', async () => {
    const ctl = ctlFor(members[2]);
    assert.match(await ctl.ok(['lease', 'list']), new RegExp(leaseId));
    assert.match(await ctl.ok(['lease', 'timetolive', leaseId, '--keys']), /attached keys\(\[restore\/leased\/a restore\/leased\/b\]\)/);
    const old = await ctl.fails(['get', 'restore/k00', `--rev=${compactRev - 1}`]);
    assert.match(old.stderr, /required revision has been compacted/);
    assert.match(await ctl.ok(['get', 'restore/k00', `--rev=${compactRev}`]), /second-0/);
  });

  void it('writes go on from the snapshot revision and reach every member', async () => {
    const put = await ctlFor(members[0]).ok(['put', 'restore/new', 'fresh', '-w', 'json']);
    assert.equal(revisionOf(put), etcdRevision + 1);
    for (const m of members) {
      const got = await eventually(`restore/new on ${m.name}`, async () => {
        const g = await ctlFor(m).ok(['get', 'restore/new', '--print-value-only', '--consistency=s']);
        return g.trim() === 'fresh' ? g : undefined;
      });
      assert.equal(got.trim(), 'fresh');
    }
  });

  void it('refuses to restore into an existing data dir', async () => {
    const r = await kvstorectl('127.0.0.1:1', ['snapshot', 'restore', file, '--data-dir', dirs[0]]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`Error: data-dir "${dirs[0]}" exists`));
    const e = await etcdctl('127.0.0.1:1', ['snapshot', 'restore', file, '--data-dir', dirs[0]]);
    assert.equal(e.stderr.split('\n').find((l) => l.startsWith('Error:')), r.stderr.split('\n').find((l) => l.startsWith('Error:')));
  });
});

void describe('kvstore 3-member cluster snapshot from the leader → restore → a new 3-member kvstore cluster', () => {
  let source: Member[] = [];
  let restored: Member[] = [];
  let kvs = '';
  let revision = 0;

  before(async () => {
    source = await startCluster('kvstore', 3);
    const { leader } = await waitForLeader(source);
    const ctl = ctlFor(source[0]);
    for (let i = 0; i < 30; i++) await ctl.ok(['put', `rb/k${i}`, `v${i}`]);
    await ctl.ok(['del', 'rb/k7']);
    await ctl.ok(['compaction', String((await ctl.revision()) - 5)]);
    await ctl.ok(['put', 'rb/k1', 'again']);
    const all = await ctlFor(leader).ok(['get', 'rb/', '--prefix', '-w', 'json']);
    kvs = kvsPart(all);
    revision = revisionOf(all);
    const file = join(makeTempDir('restore-kv-snap'), 'leader.db');
    const saved = await kvstorectl(leader.endpoint, ['snapshot', 'save', file]);
    assert.equal(saved.code, 0, saved.stderr);
    await Promise.all(source.map((m) => m.stop()));
    ({ members: restored } = await restoreCluster(file, ['b1', 'b2', 'b3']));
  });

  after(async () => {
    await Promise.all([...source, ...restored].map((m) => m.stop()));
  });

  void it('every restored member serves the same keys at the same revision; writes continue', async () => {
    for (const m of restored) {
      const got = await ctlFor(m).ok(['get', 'rb/', '--prefix', '-w', 'json']);
      assert.equal(revisionOf(got), revision, `revision through ${m.name}`);
      assert.equal(kvsPart(got), kvs, `kvs through ${m.name}`);
    }
    const put = await ctlFor(restored[2]).ok(['put', 'rb/after', 'x', '-w', 'json']);
    assert.equal(revisionOf(put), revision + 1);
  });
});
