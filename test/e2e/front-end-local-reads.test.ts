/**
 * With `KVSTORE_CLIENT_THREADS=1` the front-end thread answers serializable Ranges itself, from
 * a read replica of the store (server/frontend/local-reads.ts), on real processes with real
 * clients (etcdctl 3.4, a gRPC KV client):
 *
 * - the thread keeps its replica only while serializable reads are asked for: the first one
 *   after the start asks the core for it and is answered by the core; the next ones by the
 *   thread;
 * - serializable gets raise `kvstore_frontend_local_reads_total` one for one, linearizable
 *   ones do not; `grpc_server_handled_total` counts both (the thread's answers are reported to
 *   the core's metrics);
 * - read your own writes: a serializable get right after a put's reply sees the put, on the same
 *   connection and on another one, hundreds of times in a row;
 * - the thread's answers equal the core's: the same queries (prefix, ranges, limit, sorts,
 *   keys-only, from-key, past revisions) serializable and linearizable give the same
 *   keys, values, revisions, count and `more`;
 * - compaction: below the compact revision the answer is etcd's compacted error; at it, the
 *   data as it was;
 * - a serializable get with a token goes to the core, which checks the token even while auth
 *   is off (etcd's `invalid auth token`);
 * - auth on: serializable gets go to the core, which refuses a request without a user with
 *   etcd's text and serves root; auth off again: the thread answers again;
 * - a follower that caught up by a state image from the leader answers, from the thread, every
 *   key written while it was down. (A replica rebuilt when the store is rebuilt under it:
 *   test/unit/mvcc/read-replica.test.ts.)
 *
 * Runs against kvstore only (the variable is kvstore's). Waits are bounded; nothing is timed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Metadata } from '@grpc/grpc-js';
import type { KVClient, RangeResponse } from '../../proto/gen/etcd/rpc.js';
import { lastRunRecords } from '../support/member-log.js';
import { ctlFor, eventually, GENEROUS_MS, openKv, put, readPrefix, startCluster, startMember, waitForLeader, type BoundCtl, type Member } from '../support/processes.js';

const THREADS = { KVSTORE_CLIENT_THREADS: '1' } as const;
const LOCAL = 'kvstore_frontend_local_reads_total';
const RANGE_OK = 'grpc_server_handled_total{grpc_type="unary",grpc_service="etcdserverpb.KV",grpc_method="Range",grpc_code="OK"}';

/** The value of the metric line starting with `name` (0 when absent). */
async function metric(m: Member, name: string): Promise<number> {
  const text = await (await fetch(`${m.clientUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

/** A Range request for one key (linearizable). */
function rangeRequest(key: string) {
  return {
    key: Buffer.from(key), rangeEnd: Buffer.alloc(0), limit: 0n, revision: 0n, sortOrder: 0, sortTarget: 0, serializable: false, keysOnly: false, countOnly: false,
    minModRevision: 0n, maxModRevision: 0n, minCreateRevision: 0n, maxCreateRevision: 0n,
  };
}

/** A serializable get of one key through the gRPC client: its value, or undefined. */
function serializableGet(kv: KVClient, key: string): Promise<string | undefined> {
  const req = { ...rangeRequest(key), serializable: true };
  return new Promise((resolve, reject) => {
    kv.range(req, new Metadata(), { deadline: Date.now() + 10_000 }, (err, res?: RangeResponse) => (err ? reject(err) : resolve(res?.kvs[0]?.value.toString())));
  });
}

/** What a JSON get answers, header aside (its revision is compared on its own). */
function answer(stdout: string): unknown {
  const { header, ...rest } = JSON.parse(stdout) as { header: { revision: number } };
  return { revision: header.revision, ...rest };
}

void describe('KVSTORE_CLIENT_THREADS=1: serializable reads answered on the front-end thread', () => {
  let m: Member;
  let ctl: BoundCtl;

  before(async () => {
    m = await startMember('kvstore', { env: THREADS });
    ctl = ctlFor(m);
  });
  after(async () => {
    await m?.stop();
  });

  void it('the first serializable get asks for the replica and is answered by the core; the next ones by the thread', async () => {
    await ctl.ok(['put', 'first/a', '1']);
    assert.equal(await ctl.ok(['get', 'first/a', '--consistency=s', '--print-value-only']), '1\n');
    assert.equal(await metric(m, LOCAL), 0, 'the first one went to the core');
    await eventually('the thread answers once its replica is there', async () => {
      assert.equal(await ctl.ok(['get', 'first/a', '--consistency=s', '--print-value-only']), '1\n');
      return (await metric(m, LOCAL)) > 0 ? true : undefined;
    });
  });

  void it('serializable gets are counted as answered on the thread; linearizable ones are not; gRPC metrics count both', async () => {
    await ctl.ok(['put', 'count/a', '1']);
    const local0 = await metric(m, LOCAL);
    const ok0 = await metric(m, RANGE_OK);
    for (let i = 0; i < 5; i++) assert.equal(await ctl.ok(['get', 'count/a', '--consistency=s', '--print-value-only']), '1\n');
    for (let i = 0; i < 2; i++) assert.equal(await ctl.ok(['get', 'count/a', '--print-value-only']), '1\n');
    // The thread reports its count once per turn: eventually, and then exactly.
    await eventually('the thread reports its answers', async () => ((await metric(m, LOCAL)) - local0 === 5 ? true : undefined));
    assert.equal((await metric(m, RANGE_OK)) - ok0, 7);
  });

  void it('read your own writes: a serializable get right after a put sees it, on the same and on another connection', async () => {
    const writer = openKv(m.endpoint);
    const reader = openKv(m.endpoint);
    const local0 = await metric(m, LOCAL);
    try {
      for (let i = 0; i < 300; i++) {
        await put(writer, 'ryw/key', `v${i}`, 10_000);
        assert.equal(await serializableGet(writer, 'ryw/key'), `v${i}`, `same connection, write ${i}`);
        assert.equal(await serializableGet(reader, 'ryw/key'), `v${i}`, `other connection, write ${i}`);
      }
    } finally {
      writer.close();
      reader.close();
    }
    await eventually('every get above was answered on the thread', async () => ((await metric(m, LOCAL)) - local0 === 600 ? true : undefined));
  });

  void it('the same answers as the core, query by query', async () => {
    for (const k of ['a', 'b', 'c', 'd', 'e']) await ctl.ok(['put', `same/${k}`, `first-${k}`]);
    await ctl.ok(['put', 'same/b', 'second-b']);
    await ctl.ok(['del', 'same/d']);
    const past = await ctl.revision();
    await ctl.ok(['put', 'same/a', 'zz-second-a']);
    await ctl.ok(['put', 'same/f', 'first-f']);
    const queries = [
      ['same/', '--prefix'],
      ['same/b'],
      ['same/missing'],
      ['same/a', 'same/d'],
      ['same/', '--prefix', '--limit', '2'],
      ['same/', '--prefix', '--sort-by', 'MODIFY', '--order', 'DESCEND'],
      ['same/', '--prefix', '--sort-by', 'VALUE', '--order', 'ASCEND', '--limit', '3'],
      ['same/', '--prefix', '--sort-by', 'CREATE', '--order', 'DESCEND'],
      ['same/', '--prefix', '--keys-only'],
      ['same/c', '--from-key'],
      ['same/', '--prefix', '--rev', String(past)],
      ['same/d', '--rev', String(past - 2)],
    ];
    for (const q of queries) {
      const core = answer(await ctl.ok(['get', ...q, '-w', 'json']));
      const thread = answer(await ctl.ok(['get', ...q, '--consistency=s', '-w', 'json']));
      assert.deepEqual(thread, core, `get ${q.join(' ')}`);
    }
  });

  void it("compaction: below the compact revision etcd's error, at it the data as it was", async () => {
    await ctl.ok(['put', 'compact/k', 'old']);
    const kept = await ctl.revision();
    await ctl.ok(['put', 'compact/k', 'new']);
    await ctl.ok(['compact', String(kept)]);
    const below = await ctl.fails(['get', 'compact/k', '--consistency=s', '--rev', String(kept - 1)]);
    assert.match(below.stderr, /etcdserver: mvcc: required revision has been compacted/);
    assert.equal(await ctl.ok(['get', 'compact/k', '--consistency=s', '--rev', String(kept), '--print-value-only']), 'old\n');
    assert.equal(await ctl.ok(['get', 'compact/k', '--consistency=s', '--print-value-only']), 'new\n');
  });

  void it('a serializable get with a token goes to the core, which checks the token even while auth is off', async () => {
    const kv = openKv(m.endpoint);
    try {
      await ctl.ok(['put', 'token/k', 'v']);
      assert.equal(await serializableGet(kv, 'token/k'), 'v');
      const local0 = await metric(m, LOCAL);
      const md = new Metadata();
      md.set('token', 'no-such-token');
      const req = { ...rangeRequest('token/k'), serializable: true };
      const err = await new Promise<Error & { code?: number; details?: string }>((resolve, reject) =>
        kv.range(req, md, { deadline: Date.now() + 10_000 }, (e) => (e ? resolve(e) : reject(new Error('answered')))),
      );
      assert.deepEqual({ code: err.code, details: err.details }, { code: 16, details: 'etcdserver: invalid auth token' });
      assert.equal(await metric(m, LOCAL), local0, 'not answered on the thread');
    } finally {
      kv.close();
    }
  });

  void it('auth on: serializable gets go to the core, which checks the user; auth off: the thread answers again', async () => {
    await ctl.ok(['put', 'auth/k', 'v']);
    await ctl.ok(['user', 'add', 'root', '--new-user-password=rootpw']);
    await ctl.ok(['user', 'grant-role', 'root', 'root']);
    await ctl.ok(['auth', 'enable']);
    const local0 = await metric(m, LOCAL);
    try {
      const refused = await ctl.fails(['get', 'auth/k', '--consistency=s']);
      assert.match(refused.stderr, /etcdserver: user name is empty/);
      assert.equal(await ctl.ok(['get', 'auth/k', '--consistency=s', '--print-value-only', '--user', 'root:rootpw']), 'v\n');
      assert.equal(await metric(m, LOCAL), local0, 'nothing answered on the thread while auth is on');
    } finally {
      await ctl.ok(['auth', 'disable', '--user', 'root:rootpw']);
    }
    assert.equal(await ctl.ok(['get', 'auth/k', '--consistency=s', '--print-value-only']), 'v\n');
    await eventually('the thread answers again', async () => ((await metric(m, LOCAL)) > local0 ? true : undefined));
  });
});

void describe('KVSTORE_CLIENT_THREADS=1: a follower rebuilt from a state image answers from the thread', () => {
  const KEYS = 600;
  const PREFIX = 'image/';

  void it('every key written while it was down, answered on the thread after the image is applied', async () => {
    const members = await startCluster('kvstore', 3, { args: ['--snapshot-count=200'], env: THREADS });
    try {
      const { leader, followers } = await waitForLeader(members);
      const behind = followers[0]!;
      await behind.stop('SIGTERM');
      const kv = openKv(leader.endpoint);
      try {
        for (let i = 0; i < KEYS; i++) await put(kv, `${PREFIX}${String(i).padStart(4, '0')}`, `value-${i}`, 10_000);
      } finally {
        kv.close();
      }
      await behind.restart();
      await eventually('the follower applies the state image', async () => (lastRunRecords(behind, 'applied database snapshot').length > 0 ? true : undefined), {
        timeoutMs: 4 * GENEROUS_MS,
      });
      const local = openKv(behind.endpoint);
      try {
        // Read until the thread answers (the first read asks for its replica), then check that answer.
        const { kvs } = await eventually(`${behind.name} answers every key from the thread`, async () => {
          const before = await metric(behind, LOCAL);
          const read = await readPrefix(local, PREFIX, { serializable: true });
          return read.kvs.size === KEYS && (await metric(behind, LOCAL)) > before ? read : undefined;
        });
        for (let i = 0; i < KEYS; i += 97) assert.equal(kvs.get(`${PREFIX}${String(i).padStart(4, '0')}`)?.value, `value-${i}`);
      } finally {
        local.close();
      }
    } finally {
      await Promise.all(members.map((x) => x.stop()));
    }
  });
});
