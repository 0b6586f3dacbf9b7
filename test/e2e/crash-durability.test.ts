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
 * Environment: KVSTORE_BIN, ETCD_BIN, E2E_SERVERS=kvstore,etcd, CRASH_SEED (to replay a run),
 * CRASH_CYCLES (default 3). A run is bounded to about a minute per server.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { KVClient, type PutResponse, type RangeRequest, type RangeResponse } from '../../proto/gen/etcd/rpc.js';

type ServerKind = 'kvstore' | 'etcd';

const KVSTORE_BIN = process.env.KVSTORE_BIN ?? fileURLToPath(new URL('../../server/main.js', import.meta.url));
const ETCD_BIN = process.env.ETCD_BIN ?? '/usr/bin/etcd';
const SERVERS: ServerKind[] = (process.env.E2E_SERVERS ?? 'kvstore,etcd')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is ServerKind => s === 'kvstore' || s === 'etcd');
const CYCLES = Number(process.env.CRASH_CYCLES ?? 3);
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const WRITERS = 50;
const CONNECTIONS = 10;
/** Stop starting new cycles once this much time has gone by (the whole test stays near a minute). */
const BUDGET_MS = 45_000;

// ---- local process and client helpers (self-contained on purpose) ----

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr !== null ? addr.port : 0));
    });
  });
}

/** One member identity (name, ports, data dir) that can be started, SIGKILLed and restarted. */
class Member {
  private proc: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private output: Buffer[] = [];

  private constructor(
    readonly kind: ServerKind,
    readonly root: string,
    readonly clientPort: number,
    readonly peerPort: number,
  ) {}

  static async create(kind: ServerKind): Promise<Member> {
    return new Member(kind, mkdtempSync(join(tmpdir(), `e2e-crash-${kind}-`)), await freePort(), await freePort());
  }

  get target(): string {
    return `127.0.0.1:${this.clientPort}`;
  }

  async start(): Promise<void> {
    const client = `http://${this.target}`;
    const peer = `http://127.0.0.1:${this.peerPort}`;
    const flags = [
      '--name', 'm1',
      '--data-dir', join(this.root, 'data'),
      '--listen-client-urls', client,
      '--advertise-client-urls', client,
      '--listen-peer-urls', peer,
      '--initial-advertise-peer-urls', peer,
      '--initial-cluster', `m1=${peer}`,
      '--initial-cluster-state', 'new',
    ];
    const [cmd, args] =
      this.kind === 'etcd' ? [ETCD_BIN, [...flags, '--logger', 'zap', '--log-level', 'error']] : [process.execPath, [KVSTORE_BIN, ...flags]];
    this.output = [];
    const proc = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.on('data', (b: Buffer) => this.output.push(b));
    proc.stderr?.on('data', (b: Buffer) => this.output.push(b));
    this.proc = proc;
    this.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    try {
      await waitServing(this.target, proc);
    } catch (err) {
      await this.kill9();
      throw new Error(`${this.kind} did not start; output tail:\n${this.tail()}`, { cause: err });
    }
  }

  /** SIGKILL and wait until the process is gone. */
  async kill9(): Promise<void> {
    const p = this.proc;
    if (p !== null && p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    await this.exited;
    this.proc = null;
  }

  async destroy(): Promise<void> {
    await this.kill9();
    rmSync(this.root, { recursive: true, force: true });
  }

  tail(): string {
    return Buffer.concat(this.output).toString('utf8').split('\n').slice(-30).join('\n');
  }
}

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

async function waitServing(target: string, proc: ChildProcess): Promise<void> {
  const kv = openKv(target);
  const deadline = Date.now() + 30_000;
  try {
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`exited (code ${proc.exitCode})`);
      try {
        await range(kv, rangeReq(Buffer.from('crash/ready'), Buffer.alloc(0), 0n, 0n), 1000);
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new Error('not serving within 30 s', { cause: err });
        await sleep(100);
      }
    }
  } finally {
    kv.close();
  }
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

// ---- the test, once per server ----

for (const kind of SERVERS) {
  void describe(`crash durability of ${kind} (seed ${SEED})`, () => {
    let member: Member;

    before(async () => {
      member = await Member.create(kind);
    });

    after(async () => {
      await member?.destroy();
    });

    void it('keeps every acknowledged put across SIGKILL + restart, and revisions keep growing', async (t) => {
      const rand = mulberry32(SEED);
      const acked: Acked = new Map();
      const started = Date.now();
      t.diagnostic(`seed ${SEED} (replay with CRASH_SEED=${SEED})`);
      await member.start();
      for (let cycle = 0; cycle < CYCLES && Date.now() - started < BUDGET_MS; cycle++) {
        const killAfterMs = 200 + Math.floor(rand() * 1300);
        const before = acked.size;
        let killed = false;
        const load = writeUntilCrash(member.target, cycle, acked, () => killed);
        await sleep(killAfterMs);
        killed = true;
        await member.kill9();
        const { attempted, early } = await load;
        assert.deepEqual(early.slice(0, 5), [], `${early.length} puts failed while the member was up`);
        t.diagnostic(`cycle ${cycle}: killed after ${killAfterMs} ms; ${acked.size - before} acked of ${attempted} attempted`);
        assert.ok(acked.size > before, 'the load made progress before the kill');

        await member.start();
        const kv = openKv(member.target);
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
    });
  });
}
