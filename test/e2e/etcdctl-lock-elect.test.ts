/**
 * etcdctl 3.4 lock and elect (client-side recipes on txn, leases, sorted ranges and watch)
 * against a spawned member: mutual exclusion and hand-over, exec under the lock, leader
 * election with an observer and hand-over on resign.
 * "Still waiting" is only checked at a moment when a wrongly granted lock would usually have
 * shown already; such a check can miss a bug but never fails a correct server.
 * Recipe keys are `<name>/<session lease id as %x>` (no zero padding).
 * Runs against every server in E2E_SERVERS (default kvstore,etcd).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ctlFor, serverKinds, spawnEtcdctl, startMember, type BoundCtl, type Member } from '../support/processes.js';

/** Resolves once `get <prefix> --prefix --keys-only` lists `n` keys; returns them. */
async function waitForKeys(ctl: BoundCtl, prefix: string, n: number): Promise<string[]> {
  for (let i = 0; ; i++) {
    const keys = (await ctl.ok(['get', prefix, '--prefix', '--keys-only'])).split('\n').filter((s) => s !== '');
    if (keys.length >= n || i > 300) return keys;
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const kind of serverKinds()) {
  void describe(`etcdctl lock and elect against ${kind}`, () => {
    let member: Member;
    let ctl: BoundCtl;

    before(async () => {
      member = await startMember(kind, { name: 'locks' });
      ctl = ctlFor(member);
    });

    void it('lock: the second holder waits for the first to release, then acquires', async () => {
      const a = spawnEtcdctl(member.endpoint, ['lock', 'L1']);
      const aKey = (await a.waitFor(/^L1\/[0-9a-f]{1,16}\n\n$/)).trim();
      const b = spawnEtcdctl(member.endpoint, ['lock', 'L1']);
      const keys = await waitForKeys(ctl, 'L1/', 2);
      assert.equal(keys.length, 2, 'the waiter registered its key');
      assert.equal(keys[0], aKey);
      assert.equal(b.stdout(), '', 'the second holder does not hold the lock yet');
      const ra = await a.stop('SIGINT');
      assert.equal(ra.code, 0, ra.stderr);
      const bKey = (await b.waitFor(/\n\n$/)).trim();
      assert.equal(bKey, keys[1]);
      const rb = await b.stop('SIGINT');
      assert.equal(rb.code, 0, rb.stderr);
      assert.deepEqual(await waitForKeys(ctl, 'L1/', 0), [], 'released locks delete their keys');
    });

    void it('lock runs a command while holding the lock, with ETCD_LOCK_KEY and ETCD_LOCK_REV set', async () => {
      const out = await ctl.ok(['lock', 'L2', '--', 'sh', '-c', 'echo "key=$ETCD_LOCK_KEY rev=$ETCD_LOCK_REV"']);
      const m = /^key=(L2\/[0-9a-f]{1,16}) rev=(\d+)\n$/.exec(out);
      assert.ok(m !== null, out);
      assert.ok(Number(m[2]) > 1);
      assert.equal(await ctl.ok(['get', 'L2/', '--prefix']), '', 'the lock is released after the command');
    });

    void it('elect: one leader at a time; the observer sees each leader; resign hands over', async () => {
      const observer = spawnEtcdctl(member.endpoint, ['elect', '-l', 'E1']);
      const c1 = spawnEtcdctl(member.endpoint, ['elect', 'E1', 'p1']);
      const c1Out = await c1.waitFor('p1\n');
      assert.match(c1Out, /^E1\/[0-9a-f]{1,16}\np1\n$/);
      await observer.waitFor('p1\n');
      const c2 = spawnEtcdctl(member.endpoint, ['elect', 'E1', 'p2']);
      await waitForKeys(ctl, 'E1/', 2);
      assert.equal(c2.stdout(), '', 'the second candidate is not leader while the first is');
      const r1 = await c1.stop('SIGINT');
      assert.equal(r1.code, 0, r1.stderr);
      assert.match(await c2.waitFor('p2\n'), /^E1\/[0-9a-f]{1,16}\np2\n$/);
      const seen = await observer.waitFor('p2\n');
      assert.equal(seen, `${c1Out}${c2.stdout()}`);
      await c2.stop('SIGINT');
      await observer.stop('SIGINT');
    });
  });
}
