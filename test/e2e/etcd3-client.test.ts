/**
 * The `etcd3` npm client against a spawned single-member kvstore AND a spawned real etcd 3.4:
 * the same test body runs against both, so a behaviour difference shows up as one side failing.
 *
 * Covers KV (put/get/delete, prefix, getAll, revisions and historical reads), transactions
 * (if/then/else), leases (grant, keepalive, attached keys, revoke and expiry) and watches (a
 * prefix watcher sees puts and deletes in revision order, and replays history from a start
 * revision). Every test works under its own key prefix, so tests on one server do not interfere.
 *
 * Servers come from test/support (E2E_SERVERS=kvstore,etcd picks the targets; KVSTORE_BIN and
 * ETCD_BIN override the binaries).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Etcd3, type IKeyValue, type IWatchResponse } from 'etcd3';
import { serverKinds, startMember } from '../support/members.js';
import type { Member } from '../support/server-process.js';

/** Resolves when `check()` is true; fails after `ms` (a liveness bound, not a timing assertion). */
async function eventually(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

for (const kind of serverKinds()) {
  void describe(`etcd3 client against ${kind}`, () => {
    let member: Member;
    let client: Etcd3;

    before(async () => {
      member = await startMember(kind);
      client = new Etcd3({ hosts: member.clientUrl });
    });

    after(async () => {
      client?.close();
      await member?.stop();
    });

    void describe('kv', () => {
      void it('puts, gets and overwrites a key; versions and revisions move as etcd defines', async () => {
        const first = await client.put('kv/a').value('1').exec();
        const rev1 = BigInt(first.header.revision);
        const got1 = await client.get('kv/a').exec();
        assert.equal(got1.kvs.length, 1);
        assert.equal(got1.kvs[0].value.toString(), '1');
        assert.equal(got1.kvs[0].version, '1');
        assert.equal(BigInt(got1.kvs[0].create_revision), rev1);
        assert.equal(BigInt(got1.kvs[0].mod_revision), rev1);

        const second = await client.put('kv/a').value('2').exec();
        const rev2 = BigInt(second.header.revision);
        assert.equal(rev2, rev1 + 1n);
        const got2 = await client.get('kv/a').exec();
        assert.equal(got2.kvs[0].value.toString(), '2');
        assert.equal(got2.kvs[0].version, '2');
        assert.equal(BigInt(got2.kvs[0].create_revision), rev1);
        assert.equal(BigInt(got2.kvs[0].mod_revision), rev2);
        assert.equal(BigInt(got2.header.revision), rev2);

        assert.equal(await client.get('kv/a').revision(rev1.toString()).string(), '1', 'read at an old revision');
        assert.equal(await client.get('kv/missing').string(), null);
      });

      void it('returns the previous value of a put', async () => {
        await client.put('kv/prev').value('old');
        const prev = await client.put('kv/prev').value('new').getPrevious();
        assert.equal(prev.value.toString(), 'old');
        assert.equal(await client.get('kv/prev').string(), 'new');
      });

      void it('lists, counts, limits and sorts a prefix, and deletes keys and prefixes', async () => {
        await client.put('pfx/c').value('3');
        await client.put('pfx/a').value('1');
        await client.put('pfx/b').value('2');
        await client.put('pfx0').value('outside');

        assert.deepEqual(await client.getAll().prefix('pfx/').strings(), { 'pfx/a': '1', 'pfx/b': '2', 'pfx/c': '3' });
        assert.deepEqual(await client.getAll().prefix('pfx/').keys(), ['pfx/a', 'pfx/b', 'pfx/c']);
        assert.equal(await client.getAll().prefix('pfx/').count(), 3);
        const limited = await client.getAll().prefix('pfx/').limit(2).exec();
        assert.deepEqual(limited.kvs.map((kv) => kv.key.toString()), ['pfx/a', 'pfx/b']);
        assert.equal(limited.more, true);
        assert.equal(limited.count, '3');
        assert.deepEqual(await client.getAll().prefix('pfx/').sort('Key', 'Descend').keys(), ['pfx/c', 'pfx/b', 'pfx/a']);

        const one = await client.delete().key('pfx/a').exec();
        assert.equal(one.deleted, '1');
        assert.equal(await client.get('pfx/a').string(), null);
        const prev = await client.delete().prefix('pfx/').getPrevious();
        assert.deepEqual(prev.map((kv) => kv.key.toString()).sort(), ['pfx/b', 'pfx/c']);
        assert.equal(await client.getAll().prefix('pfx/').count(), 0);
        assert.equal(await client.get('pfx0').string(), 'outside', 'delete of a prefix leaves other keys');
        const none = await client.delete().key('pfx/never').exec();
        assert.equal(none.deleted, '0');
      });
    });

    void describe('txn', () => {
      void it('runs then-ops when the compare holds and else-ops when it does not', async () => {
        await client.put('txn/k').value('v1');
        const ok = await client
          .if('txn/k', 'Value', '==', 'v1')
          .then(client.put('txn/k').value('v2'), client.get('txn/k'))
          .else(client.put('txn/else').value('ran'))
          .commit();
        assert.equal(ok.succeeded, true);
        assert.equal(await client.get('txn/k').string(), 'v2');
        assert.equal(await client.get('txn/else').string(), null);

        const no = await client
          .if('txn/k', 'Value', '==', 'v1')
          .then(client.put('txn/k').value('v3'))
          .else(client.put('txn/else').value('ran'), client.get('txn/k'))
          .commit();
        assert.equal(no.succeeded, false);
        assert.equal(no.responses.length, 2);
        assert.equal(no.responses[1].response_range?.kvs[0].value.toString(), 'v2');
        assert.equal(await client.get('txn/k').string(), 'v2');
        assert.equal(await client.get('txn/else').string(), 'ran');
      });

      void it('compares on create revision (create-if-absent) and mod revision', async () => {
        const create = () =>
          client.if('txn/lock', 'Create', '==', 0).then(client.put('txn/lock').value('me')).else(client.get('txn/lock')).commit();
        assert.equal((await create()).succeeded, true);
        const again = await create();
        assert.equal(again.succeeded, false);
        assert.equal(again.responses[0].response_range?.kvs[0].value.toString(), 'me');

        const mod = (await client.get('txn/lock').exec()).kvs[0].mod_revision;
        const guarded = await client.if('txn/lock', 'Mod', '==', mod).then(client.delete().key('txn/lock')).commit();
        assert.equal(guarded.succeeded, true);
        assert.equal(await client.get('txn/lock').string(), null);
      });
    });

    void describe('lease', () => {
      void it('grants, keeps alive, attaches keys and revokes (attached keys disappear)', async () => {
        const lease = client.lease(30, { autoKeepAlive: false });
        const id = await lease.grant();
        await lease.put('lease/a').value('1');
        await lease.put('lease/b').value('2');
        await client.put('lease/free').value('3');

        const kv = (await client.get('lease/a').exec()).kvs[0];
        assert.equal(kv.lease, id);
        const ka = await lease.keepaliveOnce();
        assert.equal(ka.ID, id);
        assert.ok(Number(ka.TTL) > 0 && Number(ka.TTL) <= 30, `keepalive TTL ${ka.TTL}`);

        await lease.revoke();
        assert.equal(await client.get('lease/a').string(), null);
        assert.equal(await client.get('lease/b').string(), null);
        assert.equal(await client.get('lease/free').string(), '3');
      });

      void it('keeps a lease alive automatically and expires it once keepalives stop', async () => {
        const lease = client.lease(2);
        const keptAlive = new Promise<void>((resolve) => lease.once('keepaliveSucceeded', () => resolve()));
        await lease.grant();
        await lease.put('lease/auto').value('x');
        await keptAlive;
        assert.equal(await client.get('lease/auto').string(), 'x');
        lease.release(); // stop keepalives without revoking
        await eventually('the lease to expire and its key to go', async () => (await client.get('lease/auto').string()) === null);
      });
    });

    void describe('watch', () => {
      void it('delivers puts and deletes under a prefix in revision order', async () => {
        const events: Array<{ type: string; key: string; value: string; modRevision: bigint }> = [];
        const watcher = await client.watch().prefix('watch/').create();
        try {
          watcher.on('data', (res: IWatchResponse) => {
            for (const e of res.events) {
              events.push({ type: e.type, key: e.kv.key.toString(), value: e.kv.value.toString(), modRevision: BigInt(e.kv.mod_revision) });
            }
          });
          await client.put('watch/a').value('1');
          await client.put('watch/b').value('2');
          await client.put('other/c').value('ignored');
          await client.delete().key('watch/a');
          await client.put('watch/a').value('3');
          await eventually('4 watch events', () => events.length >= 4);
          assert.deepEqual(
            events.map((e) => [e.type, e.key, e.value]),
            [
              ['Put', 'watch/a', '1'],
              ['Put', 'watch/b', '2'],
              ['Delete', 'watch/a', ''],
              ['Put', 'watch/a', '3'],
            ],
          );
          for (let i = 1; i < events.length; i++) assert.ok(events[i].modRevision > events[i - 1].modRevision, 'revisions grow');
        } finally {
          await watcher.cancel();
        }
      });

      void it('replays history from a start revision, then continues live', async () => {
        const r1 = BigInt((await client.put('hist/k').value('1').exec()).header.revision);
        await client.put('hist/k').value('2');
        await client.delete().key('hist/k');
        const seen: Array<[string, string]> = [];
        const watcher = await client.watch().key('hist/k').startRevision(r1.toString()).create();
        try {
          watcher.on('put', (kv: IKeyValue) => seen.push(['put', kv.value.toString()]));
          watcher.on('delete', () => seen.push(['delete', '']));
          await eventually('the 3 historical events', () => seen.length >= 3);
          await client.put('hist/k').value('4');
          await eventually('the live event', () => seen.length >= 4);
          assert.deepEqual(seen, [
            ['put', '1'],
            ['put', '2'],
            ['delete', ''],
            ['put', '4'],
          ]);
        } finally {
          await watcher.cancel();
        }
      });
    });
  });
}
