/**
 * etcdctl 3.4 lease commands against a spawned member: grant, list, timetolive (--keys),
 * keep-alive (--once and streaming), revoke (attached keys go), expiry, and unknown leases.
 * Runs against every server in E2E_SERVERS (default kvstore,etcd).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ctlFor, serverKinds, spawnEtcdctl, startMember, type BoundCtl, type Member } from '../support/processes.js';

const GRANTED = /^lease ([0-9a-f]{16}) granted with TTL\((\d+)s\)\n$/;

async function grant(ctl: BoundCtl, ttl: number): Promise<{ id: string; ttl: number }> {
  const out = await ctl.ok(['lease', 'grant', String(ttl)]);
  const m = GRANTED.exec(out);
  assert.ok(m !== null, `unexpected grant output: ${out}`);
  return { id: m[1], ttl: Number(m[2]) };
}

for (const kind of serverKinds()) {
  void describe(`etcdctl lease commands against ${kind}`, () => {
    let member: Member;
    let ctl: BoundCtl;

    before(async () => {
      member = await startMember(kind, { name: 'lease' });
      ctl = ctlFor(member);
    });

    void it('grant prints a 16-hex-digit id and the TTL; a TTL below the minimum is raised', async () => {
      assert.equal((await grant(ctl, 60)).ttl, 60);
      assert.equal((await grant(ctl, 1)).ttl, 2, 'minimum TTL is ceil(1.5 x election timeout) = 2 s by default');
      const json = JSON.parse(await ctl.ok(['lease', 'grant', '30', '-w', 'json'])) as { ID: number; TTL: number };
      assert.ok(json.ID > 0);
      assert.equal(json.TTL, 30);
    });

    void it('list shows granted leases', async () => {
      const a = await grant(ctl, 60);
      const b = await grant(ctl, 60);
      const out = await ctl.ok(['lease', 'list']);
      const [head, ...ids] = out.trimEnd().split('\n');
      assert.match(head, /^found \d+ leases$/);
      assert.equal(Number(/\d+/.exec(head)?.[0]), ids.length);
      assert.ok(ids.includes(a.id) && ids.includes(b.id), out);
    });

    void it('timetolive reports granted and remaining TTL and, with --keys, the attached keys', async () => {
      const l = await grant(ctl, 100);
      await ctl.ok(['put', 'ttl/a', '1', `--lease=${l.id}`]);
      await ctl.ok(['put', 'ttl/b', '2', `--lease=${l.id}`]);
      const out = await ctl.ok(['lease', 'timetolive', l.id]);
      const m = /^lease ([0-9a-f]{16}) granted with TTL\(100s\), remaining\((\d+)s\)\n$/.exec(out);
      assert.ok(m !== null, out);
      assert.equal(m[1], l.id);
      assert.ok(Number(m[2]) <= 100 && Number(m[2]) > 0, out);
      const keys = await ctl.ok(['lease', 'timetolive', '--keys', l.id]);
      const k = /^lease ([0-9a-f]{16}) granted with TTL\(100s\), remaining\(\d+s\), attached keys\(\[(.*)\]\)\n$/.exec(keys);
      assert.ok(k !== null, keys);
      assert.deepEqual(k[2].split(' ').sort(), ['ttl/a', 'ttl/b'], 'attached keys, in no defined order');
    });

    void it('keep-alive --once renews and prints the granted TTL', async () => {
      const l = await grant(ctl, 50);
      assert.equal(await ctl.ok(['lease', 'keep-alive', '--once', l.id]), `lease ${l.id} keepalived with TTL(50)\n`);
    });

    void it('keep-alive streams renewals until interrupted', async () => {
      const l = await grant(ctl, 5);
      const ka = spawnEtcdctl(member.endpoint, ['lease', 'keep-alive', l.id]);
      await ka.waitFor(`lease ${l.id} keepalived with TTL(5)\n`);
      await ka.stop('SIGINT');
      assert.match(ka.stdout(), new RegExp(`^(lease ${l.id} keepalived with TTL\\(5\\)\\n)+`));
    });

    void it('revoke prints revoked and deletes the attached keys', async () => {
      const l = await grant(ctl, 60);
      await ctl.ok(['put', 'rv/a', '1', `--lease=${l.id}`]);
      await ctl.ok(['put', 'rv/b', '2', `--lease=${l.id}`]);
      const rev = await ctl.revision();
      assert.equal(await ctl.ok(['lease', 'revoke', l.id]), `lease ${l.id} revoked\n`);
      assert.equal(await ctl.ok(['get', 'rv/', '--prefix']), '');
      assert.equal(await ctl.revision(), rev + 1, 'both keys are deleted in one revision');
      assert.equal(await ctl.ok(['lease', 'timetolive', l.id]), `lease ${l.id} already expired\n`);
    });

    void it('an expired lease deletes its keys', async () => {
      const l = await grant(ctl, 2);
      await ctl.ok(['put', 'exp/a', '1', `--lease=${l.id}`]);
      for (let i = 0; i < 150 && (await ctl.ok(['get', 'exp/a'])) !== ''; i++) await sleep(100);
      assert.equal(await ctl.ok(['get', 'exp/a']), '');
      assert.equal(await ctl.ok(['lease', 'timetolive', l.id]), `lease ${l.id} already expired\n`);
    });

    void it('unknown leases: timetolive says expired, keep-alive/revoke/put fail with lease not found', async () => {
      assert.equal(await ctl.ok(['lease', 'timetolive', '1234abcd']), 'lease 000000001234abcd already expired\n');
      const ka = await ctl.fails(['lease', 'keep-alive', '--once', '1234abcd']);
      assert.match(ka.stderr, /^Error: etcdserver: requested lease not found$/m);
      const rv = await ctl.fails(['lease', 'revoke', '1234abcd']);
      assert.match(rv.stderr, /^Error: failed to revoke lease \(etcdserver: requested lease not found\)$/m);
      const put = await ctl.fails(['put', 'k', 'v', '--lease=1234abcd']);
      assert.match(put.stderr, /^Error: etcdserver: requested lease not found$/m);
    });
  });
}
