/**
 * Crash durability: a member killed with SIGKILL in the middle of a write load must, after a
 * restart on the same data dir, still hold every put it acknowledged (same value, same
 * modRevision), and hand out revisions above every acknowledged one.
 *
 * Each cycle: start the member (same name, ports, data dir), run 50 closed-loop writers over 10
 * connections putting unique keys `crash/<cycle>/<client>/<seq>`, SIGKILL the process at a random
 * moment, restart it, check every put acknowledged so far (all cycles), then put once more and
 * check its revision. The same body runs against real etcd (as a check of the test itself).
 *
 * Servers come from test/support (E2E_SERVERS=kvstore,etcd, KVSTORE_BIN, ETCD_BIN). CRASH_SEED
 * replays a run; CRASH_CYCLES (default 3). A run is bounded to about a minute per server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { KVClient, type PutResponse, type RangeRequest, type RangeResponse } from '../../proto/gen/etcd/rpc.js';
import { serverKinds, startMember } from '../support/members.js';
import { mulberry32 } from '../support/seeded-random.js';

const CYCLES = Number(process.env.CRASH_CYCLES ?? 3);
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const WRITERS = 50;
const CONNECTIONS = 10;
/** Stop starting new cycles once this much time has gone by (the whole test stays near a minute). */
const BUDGET_MS = 45_000;


function openKv(target: string): KVClient {
  return new KVClient(target, credentials.createInsecure(), {
    'grpc.use_local_subchannel_pool': 1,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
  });
}

function rangeReq(key: Buffer, rangeEnd: Buffer, limit: bigint, revision: bigint): RangeRequest {
  return {
    key, rangeEnd, limit, revision, sortOrder: 0, sortTarget: 0, serializable: false, keysOnly: false, countOnly: false,
    minModRevision: 0n, maxModRevision: 0n, minCreateRevision: 0n, maxCreateRevision: 0n,
  };
}

function range(kv: KVClient, req: RangeRequest, timeoutMs = 5000): Promise<RangeResponse> {
  return new Promise((resolve, reject) => {
    kv.range(req, new Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

function put(kv: KVClient, key: string, value: string, timeoutMs = 5000): Promise<PutResponse> {
  return new Promise((resolve, reject) => {
    kv.put(
      { key: Buffer.from(key), value: Buffer.from(value), lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false },
      new Metadata(),
      { deadline: Date.now() + timeoutMs },
      (err: ServiceError | null, res) => (err ? reject(err) : resolve(res)),
    );
  });
}

/** Every key/value/revision the server acknowledged. */
type Acked = Map<string, { readonly value: string; readonly revision: bigint }>;

/**
 * Runs WRITERS closed-loop writers until each sees its first failure, recording acknowledged puts
 * into `acked`. Resolves when all writers have stopped. A writer that fails before `killed()` is
 * true reports it in `early` (the server refused a put while healthy).
 */
async function writeUntilCrash(
  target: string,
  cycle: number,
  acked: Acked,
  killed: () => boolean,
): Promise<{ attempted: number; early: string[] }> {
  const conns = Array.from({ length: CONNECTIONS }, () => openKv(target));
  let attempted = 0;
  const early: string[] = [];
  const writer = async (w: number): Promise<void> => {
    const kv = conns[w % CONNECTIONS];
    for (let seq = 0; ; seq++) {
      const key = `crash/${cycle}/${String(w).padStart(2, '0')}/${String(seq).padStart(6, '0')}`;
      const value = `v:${cycle}:${w}:${seq}`;
      attempted++;
      try {
        const res = await put(kv, key, value);
        acked.set(key, { value, revision: res.header?.revision ?? -1n });
      } catch (err) {
        // After the kill every writer ends here; before it, a failure is a finding.
        if (!killed()) early.push(`${key}: ${(err as Error).message}`);
        return;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  } finally {
    for (const c of conns) c.close();
  }
  return { attempted, early };
}

/** Reads every key under crash/ at one revision, page by page. */
async function readAll(kv: KVClient): Promise<{ kvs: Map<string, { value: string; modRevision: bigint }>; revision: bigint }> {
  const out = new Map<string, { value: string; modRevision: bigint }>();
  const end = Buffer.from('crash0');
  let from = Buffer.from('crash/');
  let revision = 0n;
  for (;;) {
    const res = await range(kv, rangeReq(from, end, 5000n, revision));
    if (revision === 0n) revision = res.header?.revision ?? 0n;
    for (const item of res.kvs) out.set(item.key.toString(), { value: item.value.toString(), modRevision: item.modRevision });
    if (!res.more || res.kvs.length === 0) break;
    from = Buffer.concat([res.kvs[res.kvs.length - 1].key, Buffer.from([0])]);
  }
  return { kvs: out, revision };
}

/**
 * After a restart: every acknowledged put is present with its value and modRevision, the store's
 * revision is at least the highest acknowledged one, and a new put gets a higher revision.
 */
async function verify(target: string, cycle: number, acked: Acked): Promise<void> {
  const kv = openKv(target);
  try {
    const { kvs, revision } = await readAll(kv);
    let maxAcked = 0n;
    const missing: string[] = [];
    for (const [key, a] of acked) {
      if (a.revision > maxAcked) maxAcked = a.revision;
      const got = kvs.get(key);
      if (got === undefined) {
        missing.push(key);
        continue;
      }
      assert.equal(got.value, a.value, `value of ${key}`);
      assert.equal(got.modRevision, a.revision, `modRevision of ${key}`);
    }
    assert.deepEqual(missing.slice(0, 10), [], `${missing.length} acknowledged keys lost after restart`);
    assert.ok(revision >= maxAcked, `store revision ${revision} below acknowledged ${maxAcked}`);

    const next = await put(kv, `crash/after/${cycle}`, 'x');
    const nextRev = next.header?.revision ?? 0n;
    assert.ok(nextRev > maxAcked, `new put got revision ${nextRev}, not above acknowledged ${maxAcked}`);
    assert.ok(nextRev > revision, `new put got revision ${nextRev}, not above the store's ${revision}`);
  } finally {
    kv.close();
  }
}

for (const kind of serverKinds()) {
  void describe(`crash durability of ${kind} (seed ${SEED})`, () => {
    void it('keeps every acknowledged put across SIGKILL + restart, and revisions keep growing', async (t) => {
      const rand = mulberry32(SEED);
      const acked: Acked = new Map();
      const started = Date.now();
      t.diagnostic(`seed ${SEED} (replay with CRASH_SEED=${SEED})`);
      const member = await startMember(kind);
      try {
        for (let cycle = 0; cycle < CYCLES && Date.now() - started < BUDGET_MS; cycle++) {
          const killAfterMs = 200 + Math.floor(rand() * 1300);
          const before = acked.size;
          let killed = false;
          const load = writeUntilCrash(member.endpoint, cycle, acked, () => killed);
          await sleep(killAfterMs);
          killed = true;
          await member.kill9();
          const { attempted, early } = await load;
          t.diagnostic(`cycle ${cycle}: killed after ${killAfterMs} ms; ${acked.size - before} acked of ${attempted} attempted`);
          assert.deepEqual(early.slice(0, 5), [], `${early.length} puts failed while the member was up`);
          assert.ok(acked.size > before, 'the load made progress before the kill');

          await member.restart(); // same flags, ports and data dir
          await verify(member.endpoint, cycle, acked);
        }
      } catch (err) {
        t.diagnostic(`${kind} log tail:\n${member.logs().split('\n').slice(-40).join('\n')}`);
        throw err;
      } finally {
        await member.stop();
      }
    });
  });
}
