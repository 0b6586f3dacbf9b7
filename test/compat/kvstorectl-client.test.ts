/**
 * The client library (ctl/client) against one member of each server kind (E2E_SERVERS, default
 * kvstore,etcd): dial timeout and per-call deadlines as `context deadline exceeded`,
 * cancellation as `context canceled`, etcd errors as typed values recognised by message,
 * lease keep-alive stream, snapshot stream with its SHA-256 trailer, watch with created notify
 * and compaction cancel; and authentication (etcd only: kvstore has no auth store yet).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { createClient, type Client } from '../../ctl/client/index.js';
import { etcdctl, etcdVersion, freePorts, mask, serverKinds, startMember, type Member } from '../support/processes.js';
import { kvstorectl } from '../unit/ctl/support/ctl-diff.js';

async function deadEndpoint(): Promise<string> {
  const [port] = await freePorts('127.0.0.1', 1);
  return `127.0.0.1:${port}`;
}

for (const kind of serverKinds()) {
  void describe(`client library against ${kind}`, () => {
    let member: Member;
    let client: Client;

    before(async () => {
      member = await startMember(kind, { name: 'lib', env: kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {} });
      client = createClient({ endpoints: [member.endpoint], dialTimeoutMs: 2000, commandTimeoutMs: 5000 });
    });
    after(async () => {
      client?.close();
      await member?.kill9();
    });

    void it('dial timeout and call deadlines end as context deadline exceeded; abort as context canceled', async () => {
      const dead = createClient({ endpoints: [await deadEndpoint()], dialTimeoutMs: 300 });
      try {
        const t0 = Date.now();
        const dial = await dead.connect();
        assert.ok(!dial.ok);
        assert.equal(dial.error.kind, 'DeadlineExceeded');
        assert.equal(dial.error.message, 'context deadline exceeded');
        assert.ok(Date.now() - t0 < 2000);
        const get = await dead.kv.get('k', { timeoutMs: 300 });
        assert.ok(!get.ok);
        assert.equal(get.error.code, 4);
        assert.equal(get.error.message, 'context deadline exceeded');
        const ac = new AbortController();
        setTimeout(() => ac.abort(), 100);
        const aborted = await dead.kv.get('k', { signal: ac.signal });
        assert.ok(!aborted.ok);
        assert.equal(aborted.error.kind, 'Canceled');
        assert.equal(aborted.error.message, 'context canceled');
      } finally {
        dead.close();
      }
      assert.deepEqual(await client.connect(), { ok: true, value: member.endpoint });
    });

    void it('etcd errors come back typed, with code and etcd message', async () => {
      assert.ok((await client.kv.put('e', '1')).ok);
      const put = await client.kv.put('e', '2');
      assert.ok(put.ok);
      const rev = put.value.header?.revision ?? 0n;
      assert.ok((await client.kv.compact(rev)).ok);
      const cases = [
        [await client.kv.get('e', { revision: rev - 1n }), 'Compacted', 11, 'etcdserver: mvcc: required revision has been compacted'],
        [await client.kv.get('e', { revision: rev + 1000n }), 'FutureRev', 11, 'etcdserver: mvcc: required revision is a future revision'],
        [await client.lease.revoke(0x1234abcdn), 'LeaseNotFound', 5, 'etcdserver: requested lease not found'],
        [await client.kv.put('', 'v'), 'EmptyKey', 3, 'etcdserver: key is not provided'],
        [await client.lease.keepAliveOnce(0x1234abcdn), 'LeaseNotFound', 5, 'etcdserver: requested lease not found'],
      ] as const;
      for (const [r, kind, code, message] of cases) {
        assert.ok(!r.ok, kind);
        assert.deepEqual([r.error.kind, r.error.code, r.error.message], [kind, code, message]);
      }
    });

    void it('keep-alive renews a short lease for longer than its TTL; revoke ends the stream', async () => {
      const g = await client.lease.grant(2n);
      assert.ok(g.ok);
      const id = g.value.ID;
      const ac = new AbortController();
      const seen: bigint[] = [];
      const done = (async () => {
        for await (const r of client.lease.keepAlive(id, { signal: ac.signal })) if (r.ok) seen.push(r.value.TTL);
      })();
      await sleep(3500);
      const ttl = await client.lease.timeToLive(id);
      assert.ok(ttl.ok && ttl.value.TTL > 0n, 'still alive after 3.5 s');
      assert.ok(seen.length >= 2 && seen.every((t) => t === 2n), `renewals: ${seen.join(',')}`);
      assert.ok((await client.lease.revoke(id)).ok);
      await Promise.race([done, sleep(3000)]);
      ac.abort();
      await done;
    });

    void it('snapshot stream: chunks in order, the last 32 bytes are the SHA-256 of the rest', async () => {
      const parts: Buffer[] = [];
      for await (const r of client.maintenance.snapshot()) {
        assert.ok(r.ok, r.ok ? '' : r.error.message);
        parts.push(r.value.blob);
      }
      const all = Buffer.concat(parts);
      assert.equal(all.length % 512, 32);
      assert.deepEqual(all.subarray(all.length - 32), createHash('sha256').update(all.subarray(0, all.length - 32)).digest());
    });

    void it('watch: created notify, events in order, compacted start canceled', async () => {
      const first = await client.kv.put('wk', '0');
      assert.ok(first.ok);
      const w = client.watch('wk', { createdNotify: true, startRevision: first.value.header?.revision });
      const got: string[] = [];
      let created = false;
      for await (const r of w) {
        assert.ok(r.ok);
        if (r.value.created) {
          created = true;
          for (let i = 1; i <= 3; i++) await client.kv.put('wk', String(i));
          continue;
        }
        got.push(...r.value.events.map((e) => e.kv?.value.toString() ?? ''));
        if (got.length === 4) w.close();
      }
      assert.ok(created);
      assert.deepEqual(got, ['0', '1', '2', '3']);
      const last = await client.kv.put('wk', 'last');
      assert.ok(last.ok);
      assert.ok((await client.kv.compact(last.value.header?.revision ?? 0n)).ok);
      const old = client.watch('wk', { startRevision: 1n });
      const items = [];
      for await (const r of old) items.push(r);
      assert.equal(items.length, 1);
      assert.ok(items[0].ok && items[0].value.canceled && items[0].value.compactRevision > 0n);
    });
  });
}

void describe('client library authentication (etcd)', () => {
  let member: Member;
  before(async () => {
    member = await startMember('etcd', { name: 'auth' });
    for (const args of [['user', 'add', 'root:rootpw'], ['user', 'grant-role', 'root', 'root'], ['auth', 'enable']]) {
      const r = await etcdctl(member.endpoint, args);
      assert.equal(r.code, 0, r.stderr);
    }
  });
  after(async () => {
    await member?.kill9();
  });

  void it('username/password: authenticates, sends the token; bad credentials and no token fail typed', async () => {
    const good = createClient({ endpoints: [member.endpoint], dialTimeoutMs: 2000, commandTimeoutMs: 5000, username: 'root', password: 'rootpw' });
    const bad = createClient({ endpoints: [member.endpoint], dialTimeoutMs: 2000, commandTimeoutMs: 5000, username: 'root', password: 'nope' });
    const anon = createClient({ endpoints: [member.endpoint], dialTimeoutMs: 2000, commandTimeoutMs: 5000 });
    try {
      assert.ok((await good.kv.put('secret', 'v')).ok);
      const r = await good.kv.get('secret');
      assert.ok(r.ok && r.value.kvs[0]?.value.toString() === 'v');
      const b = await bad.kv.get('secret');
      assert.ok(!b.ok);
      assert.equal(b.error.kind, 'AuthFailed');
      const a = await anon.kv.get('secret');
      assert.ok(!a.ok);
      assert.equal(a.error.kind, 'UserEmpty');
      const t = await anon.auth.authenticate('root', 'rootpw');
      assert.ok(t.ok && t.value.token.length > 0);
    } finally {
      good.close();
      bad.close();
      anon.close();
    }
  });

  void it('kvstorectl --user/--password behave as etcdctl: token sent, bad credentials exit 2, no user refused', async () => {
    const runs: (readonly string[])[] = [
      ['--user', 'root:rootpw', 'put', 'a', '1'],
      ['--user', 'root', '--password', 'rootpw', 'get', 'a'],
      ['--user', 'root:bad', 'get', 'a'],
      ['get', 'a'],
      ['--user', 'nobody:x', 'endpoint', 'health'],
      ['--user', 'root:bad', 'txn'],
    ];
    for (const args of runs) {
      const [ref, got] = await Promise.all([etcdctl(member.endpoint, args, { input: '\n\n\n' }), kvstorectl(member.endpoint, args, { input: '\n\n\n' })]);
      const show = (r: typeof ref): string => mask(`exit ${r.code}\n${r.stdout}--- stderr\n${r.stderr}`);
      assert.equal(show(got), show(ref), args.join(' '));
    }
  });
});
