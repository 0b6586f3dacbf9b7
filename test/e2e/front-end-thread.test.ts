/**
 * Members started with `KVSTORE_CLIENT_THREADS=1` serve their client port from a front-end
 * worker thread (server/frontend/), and every client use works through it, with real processes
 * and real clients (etcdctl 3.4, the etcd3 npm client, Node's HTTP clients) on loopback:
 *
 * - the client port's listener and its client connections live in a worker thread, not on the
 *   main thread (a Node diagnostic report of the member, requested with SIGUSR2), and the main
 *   thread's logger writes the thread's `serving client requests (gRPC and HTTP/1.1)` line;
 * - etcdctl put / get --prefix / del / txn, `endpoint status`, and `snapshot save` of a data set
 *   of several MB (far beyond the HTTP/2 windows and the front end's high-water mark, so the
 *   snapshot stream is flow-controlled), checked by its SHA-256 trailer and `snapshot status`;
 * - Watch (a bidirectional stream): events in revision order for puts done meanwhile, a watch
 *   cancelled by the client (the server drops it, its sibling on the same stream goes on);
 *   leases: etcdctl grant, keep-alive --once and revoke (the attached key goes, a watcher sees
 *   the delete), and the etcd3 client's keep-alive stream holding a short lease past its TTL;
 * - HTTP/1.1 on the same port: the JSON gateway's /v3/kv/put and /v3/kv/range, /health,
 *   /version, /metrics (kvstore_ metrics with live values), two requests on one kept-alive connection,
 *   a request whose client ends its side right after sending it (answered, then closed);
 * - TLS with client-certificate auth: the certificate's CN is the user for unary calls (etcd's
 *   exact refusal text, as tls-auth-common-name.test.ts) and for Watch; HTTP/2 and HTTP/1.1
 *   requests over TLS are answered, a client without a certificate is not;
 * - durability: puts acknowledged under load survive kill -9 (restarted with the thread again);
 * - a SIGTERM while a watch is open stops the member with exit status 0 (before the harness's
 *   15 s SIGKILL bound, which would give no status).
 *
 * Runs against kvstore only (the variable is kvstore's). Waits are bounded; nothing is timed.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { Etcd3, type IWatchResponse, type Watcher } from 'etcd3';
import { countRecords, lastRunRecords } from '../support/member-log.js';
import { getJson, getOverHttp2 } from '../support/member-http.js';
import {
  ctlFor, endpointStatus, etcdctl, eventually, makeTempDir, openKv, put, readPrefix, reserveAddress, spawnEtcdctl,
  startMember, unmatchedAcks, WriteLoad, type BoundCtl, type Member, type MemberAddress,
} from '../support/processes.js';
import { CN_AUTH_SETUP, issueCertificate, makeTlsFiles, type TlsFiles } from '../support/tls-certs.js';

const THREADS = { KVSTORE_CLIENT_THREADS: '1' } as const;
const SERVING = 'serving client requests (gRPC and HTTP/1.1)';
const DENIED = '1  Error: etcdserver: permission denied';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const lines = (...xs: string[]): string => xs.map((x) => `${x}\n`).join('');
const portOf = (m: { endpoint: string }): number => Number(m.endpoint.split(':').at(-1));

// ---- where the member's sockets live: a Node diagnostic report (--report-on-signal) ----

interface ReportHandle {
  readonly type: string;
  readonly localEndpoint?: { readonly port: number } | null;
  readonly remoteEndpoint?: { readonly port: number } | null;
}
interface Report {
  readonly libuv: readonly ReportHandle[];
  readonly workers: readonly { readonly libuv: readonly ReportHandle[] }[];
}
/** A TCP handle on `port`: the listener, or a connection (remote port set). */
type Tcp = { readonly listener: true } | { readonly remotePort: number };

/** The environment that makes a member write a diagnostic report into `dir` on SIGUSR2. */
function reportEnv(dir: string): Record<string, string> {
  const inherited = process.env.NODE_OPTIONS ?? '';
  return { NODE_OPTIONS: `${inherited} --report-on-signal --report-signal=SIGUSR2 --report-directory=${dir}`.trim() };
}

/** Asks the member for a report; returns the TCP handles on `port` of its main thread and of each worker. */
async function socketsOn(m: Member, dir: string, port: number): Promise<{ main: Tcp[]; workers: Tcp[][] }> {
  const seen = new Set(readdirSync(dir));
  process.kill(m.pid, 'SIGUSR2');
  const report = await eventually(`a diagnostic report of ${m.name} in ${dir}`, async () => {
    const name = readdirSync(dir).find((f) => !seen.has(f) && f.endsWith('.json'));
    // A report still being written does not parse yet: eventually() retries.
    return name === undefined ? undefined : (JSON.parse(readFileSync(join(dir, name), 'utf8')) as Report);
  });
  const tcp = (handles: readonly ReportHandle[]): Tcp[] =>
    handles
      .filter((h) => h.type === 'tcp' && h.localEndpoint?.port === port)
      .map((h): Tcp => (h.remoteEndpoint ? { remotePort: h.remoteEndpoint.port } : { listener: true }));
  return { main: tcp(report.libuv), workers: report.workers.map((w) => tcp(w.libuv)) };
}

/** Asserts that a worker thread, and not the main thread, holds the client port's listener (and `connections` sockets at least). */
async function assertPortInThread(m: Member, dir: string, port: number, connections = 0): Promise<void> {
  const { main, workers } = await socketsOn(m, dir, port);
  assert.deepEqual(main, [], 'the main thread holds no socket of the client port');
  assert.equal(workers.length, 1, 'one worker thread');
  const seen = JSON.stringify(workers[0]);
  assert.equal(workers[0].filter((h) => 'listener' in h).length, 1, `the worker listens on the client port: ${seen}`);
  assert.ok(workers[0].filter((h) => 'remotePort' in h).length >= connections, `${connections} client connection(s) in the worker: ${seen}`);
}

// ---- HTTP helpers ----

interface Answer {
  readonly status: number;
  readonly body: string;
  /** The request went out on a connection that had served an earlier one. */
  readonly reused: boolean;
  /** The client's local port (names the TCP connection). */
  readonly localPort: number | undefined;
}

function http1(url: string, opts: { method?: string; body?: string; agent?: Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method ?? 'GET', agent: opts.agent, headers: opts.body ? { 'content-type': 'application/json' } : {} }, (res: IncomingMessage) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8'), reused: req.reusedSocket, localPort: req.socket?.localPort }),
      );
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`${url}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** POST a JSON body to the gateway; the answer parsed. */
async function gateway<T>(m: Member, path: string, body: unknown): Promise<T> {
  const a = await http1(`${m.clientUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
  assert.equal(a.status, 200, `${path}: ${a.body}`);
  return JSON.parse(a.body) as T;
}

/** One metric's value from /metrics text (first sample of that name, no labels). */
function sample(metrics: string, name: string): number | undefined {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics);
  return m === null ? undefined : Number(m[1]);
}

async function metricsOf(m: Member): Promise<string> {
  const a = await http1(`${m.clientUrl}/metrics`);
  assert.equal(a.status, 200, a.body);
  return a.body;
}

void describe('KVSTORE_CLIENT_THREADS=1: a plaintext member served through its front-end thread', () => {
  let member: Member;
  let ctl: BoundCtl;
  let client: Etcd3;
  let reports: string;

  before(async () => {
    reports = makeTempDir('front-end-reports');
    member = await startMember('kvstore', { name: 'front-end', env: { ...THREADS, ...reportEnv(reports) } });
    ctl = ctlFor(member);
    client = new Etcd3({ hosts: member.clientUrl });
  });

  after(async () => {
    client?.close();
    await member?.stop('SIGKILL');
  });

  void it('the client port and its connections are held by a worker thread; the main thread logs the serving line', async () => {
    const watch = spawnEtcdctl(member.endpoint, ['watch', 'probe/k', '--rev=1']);
    try {
      await ctl.ok(['put', 'probe/k', 'v']);
      await watch.waitFor(lines('PUT', 'probe/k', 'v')); // its connection is open now
      await assertPortInThread(member, reports, portOf(member), 1);
    } finally {
      await watch.stop('SIGINT');
    }
    const serving = lastRunRecords(member, SERVING);
    assert.equal(serving.length, 1, `one '${SERVING}' line:\n${member.logs().slice(-3000)}`);
    assert.equal(serving[0].url, `${member.clientUrl}/`);
    assert.equal(serving[0].name, 'front-end', "written by the member's own logger (its name field)");
  });

  void it('etcdctl put, get --prefix, del and txn', async () => {
    assert.equal(await ctl.ok(['put', 'kv/b', '2']), 'OK\n');
    assert.equal(await ctl.ok(['put', 'kv/a', '1']), 'OK\n');
    assert.equal(await ctl.ok(['put', 'kv/c', '3']), 'OK\n');
    assert.equal(await ctl.ok(['put', 'kv0', 'outside']), 'OK\n');
    assert.equal(await ctl.ok(['get', 'kv/', '--prefix']), lines('kv/a', '1', 'kv/b', '2', 'kv/c', '3'));
    assert.equal(await ctl.ok(['get', 'kv/b']), lines('kv/b', '2'));
    assert.equal(await ctl.ok(['del', 'kv/a']), lines('1'));
    assert.equal(await ctl.ok(['del', 'kv/', '--prefix', '--prev-kv']), lines('2', 'kv/b', '2', 'kv/c', '3'));
    assert.equal(await ctl.ok(['get', 'kv', '--prefix']), lines('kv0', 'outside'));

    await ctl.ok(['put', 'txn/a', '1']);
    const success = await ctl.ok(['txn'], { input: 'value("txn/a") = "1"\n\nput txn/b 2\nget txn/a\n\nput txn/x 9\n\n' });
    assert.equal(success, lines('SUCCESS', '', 'OK', '', 'txn/a', '1'));
    const failure = await ctl.ok(['txn'], { input: 'value("txn/a") = "2"\n\nput txn/b 3\n\nput txn/x 9\n\n' });
    assert.equal(failure, lines('FAILURE', '', 'OK'));
    assert.equal(await ctl.ok(['get', 'txn/', '--prefix']), lines('txn/a', '1', 'txn/b', '2', 'txn/x', '9'));
  });

  void it('endpoint status: this member, the leader, at the current revision', async () => {
    const revision = await ctl.revision();
    const { statuses, result } = await endpointStatus(member.endpoint);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(statuses.length, 1, result.stdout);
    const [s] = statuses;
    assert.equal(s.endpoint, member.endpoint);
    assert.equal(s.leader, s.memberId, 'a single member leads');
    assert.equal(s.revision, BigInt(revision));
    assert.ok(s.raftIndex > 0n && s.raftTerm > 0n, result.stdout);
    const simple = await ctl.ok(['endpoint', 'status']);
    assert.match(simple, new RegExp(`^${member.endpoint.replace(/\./g, '\\.')}, ${s.memberId}, 3\\.5\\.\\d+, .*, true, false, `));
  });

  void it('snapshot save streams several MB (flow-controlled) into an image etcdctl reads', async () => {
    const KEYS = 64;
    const values = Array.from({ length: KEYS }, () => randomBytes(32 * 1024).toString('hex')); // 64 KiB each: 4 MiB
    const kv = openKv(member.endpoint);
    try {
      for (let i = 0; i < KEYS; i += 8) {
        await Promise.all(values.slice(i, i + 8).map((v, j) => put(kv, `snap/${String(i + j).padStart(3, '0')}`, v, 10_000)));
      }
      const back = await readPrefix(kv, 'snap/');
      assert.equal(back.kvs.size, KEYS);
      assert.ok([...back.kvs.values()].every((s, i) => s.value === values[i]), 'the values read back are the ones put');
    } finally {
      kv.close();
    }
    const revision = await ctl.revision();

    const file = join(makeTempDir('front-end-snapshot'), 'snap.db');
    const r = await etcdctl(member.endpoint, ['snapshot', 'save', file], { timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `Snapshot saved at ${file}\n`);
    const bytes = readFileSync(file);
    assert.ok(bytes.length > KEYS * 64 * 1024, `the image holds the values: ${bytes.length} bytes`);
    const body = bytes.subarray(0, bytes.length - 32);
    assert.deepEqual(bytes.subarray(bytes.length - 32), createHash('sha256').update(body).digest(), 'SHA-256 trailer matches the bytes received');

    const status = JSON.parse(await ctl.ok(['snapshot', 'status', file, '-w', 'json'])) as { revision: number; totalKey: number; totalSize: number };
    assert.equal(status.revision, revision);
    assert.ok(status.totalKey >= KEYS, `totalKey ${status.totalKey}`);
    assert.equal(status.totalSize, statSync(file).size - 32, 'totalSize is the image without its trailer');
  });

  void it('watch: events arrive in revision order for puts done meanwhile', async () => {
    const events: Array<[string, string, string, string]> = [];
    const watcher = await client.watch().prefix('order/').create();
    try {
      watcher.on('data', (res: IWatchResponse) => {
        for (const e of res.events) events.push([e.type, e.kv.key.toString(), e.kv.value.toString(), e.kv.mod_revision]);
      });
      const expected: Array<[string, string, string, string]> = [];
      for (let i = 0; i < 40; i++) {
        const key = `order/${i % 7}`;
        if (i % 10 === 9) {
          const res = await client.delete().key(key).exec();
          expected.push(['Delete', key, '', res.header.revision]);
        } else {
          const res = await client.put(key).value(`v${i}`).exec();
          expected.push(['Put', key, `v${i}`, res.header.revision]);
        }
        if (i === 20) await client.put('other/ignored').value('x'); // not under the prefix
      }
      await eventually(`${expected.length} watch events`, async () => (events.length >= expected.length ? true : undefined), {
        describe: () => `${events.length} events`,
      });
      assert.deepEqual(events, expected);
    } finally {
      await watcher.cancel();
    }
  });

  void it('watch: a watch cancelled by the client is dropped by the server; its sibling on the same stream goes on', async () => {
    // The server's watcher gauge (refreshed every few seconds): no other watch is open now.
    const watchersAre = (n: number) => async (): Promise<true | undefined> =>
      sample(await metricsOf(member), 'kvstore_debugging_mvcc_watcher_total') === n ? true : undefined;
    const seenA: string[] = [];
    const seenB: string[] = [];
    let disconnected = 0;
    const a: Watcher = await client.watch().key('cancel/a').create();
    const b: Watcher = await client.watch().key('cancel/b').create();
    try {
      for (const [w, seen] of [[a, seenA], [b, seenB]] as const) {
        w.on('put', (kv) => seen.push(kv.value.toString()));
        w.on('disconnected', () => disconnected++);
      }
      await eventually('2 watchers on the server', watchersAre(2));
      await client.put('cancel/a').value('1');
      await client.put('cancel/b').value('1');
      await eventually('both first events', async () => (seenA.length === 1 && seenB.length === 1 ? true : undefined));

      await a.cancel(); // resolves on the server's canceled response
      await eventually('the server dropped the cancelled watcher', watchersAre(1));
      await client.put('cancel/a').value('2');
      await client.put('cancel/b').value('2'); // a later revision: delivered after anything for cancel/a would be
      await eventually("b's second event", async () => (seenB.length === 2 ? true : undefined));
      assert.deepEqual(seenA, ['1'], 'nothing reaches a cancelled watcher');
      assert.deepEqual(seenB, ['1', '2']);
      assert.equal(disconnected, 0, 'the watch stream was never broken');
    } finally {
      await b.cancel();
    }
  });

  void it('leases: grant, keep-alive --once, revoke deletes the attached key (a watcher sees it); etcd3 keep-alive holds a lease past its TTL', async () => {
    const granted = /^lease ([0-9a-f]{16}) granted with TTL\((\d+)s\)\n$/.exec(await ctl.ok(['lease', 'grant', '60']));
    assert.ok(granted !== null, 'grant output');
    const id = granted[1];
    assert.equal(await ctl.ok(['put', 'lease/k', 'v', `--lease=${id}`]), 'OK\n');
    const from = await ctl.revision();
    const watch = spawnEtcdctl(member.endpoint, ['watch', 'lease/k', `--rev=${from}`]);
    try {
      await watch.waitFor(lines('PUT', 'lease/k', 'v'));
      assert.equal(await ctl.ok(['lease', 'keep-alive', '--once', id]), `lease ${id} keepalived with TTL(60)\n`);
      assert.match(await ctl.ok(['lease', 'timetolive', '--keys', id]), new RegExp(`^lease ${id} granted with TTL\\(60s\\), remaining\\(\\d+s\\), attached keys\\(\\[lease/k\\]\\)\\n$`));
      assert.equal(await ctl.ok(['lease', 'revoke', id]), `lease ${id} revoked\n`);
      assert.equal(await ctl.ok(['get', 'lease/k']), '');
      await watch.waitFor(lines('PUT', 'lease/k', 'v', 'DELETE', 'lease/k', ''));
    } finally {
      await watch.stop('SIGINT');
    }
    assert.equal(watch.stdout(), lines('PUT', 'lease/k', 'v', 'DELETE', 'lease/k', ''));

    // The etcd3 client renews every TTL/3 on its LeaseKeepAlive stream: after 6 renewals (about
    // 2 TTLs) the key is still there only because the renewals reached the lessor.
    const lease = client.lease(2);
    let renewals = 0;
    lease.on('keepaliveSucceeded', () => renewals++);
    try {
      const leaseId = await lease.grant();
      await lease.put('lease/auto').value('x');
      await eventually('6 keep-alive answers', async () => (renewals >= 6 ? true : undefined), { describe: () => `${renewals} renewals` });
      const kv = (await client.get('lease/auto').exec()).kvs[0];
      assert.equal(kv?.value.toString(), 'x', 'the key outlived its TTL');
      assert.equal(kv?.lease, leaseId);
      await lease.revoke();
      assert.equal(await client.get('lease/auto').string(), null, 'revoking the lease deleted its key');
    } finally {
      lease.release();
    }
  });

  void it('HTTP/1.1 on the client port: the JSON gateway puts and ranges (base64 keys), and sees the gRPC side', async () => {
    const putRes = await gateway<{ header: { revision: string } }>(member, '/v3/kv/put', { key: b64('gw/a'), value: b64('from-json') });
    const revision = Number(putRes.header.revision);
    assert.equal(await ctl.revision(), revision, 'the put made the current revision');
    assert.equal(await ctl.ok(['get', 'gw/a', '--print-value-only']), lines('from-json'));

    await ctl.ok(['put', 'gw/b', 'from-grpc']);
    const range = await gateway<{ kvs: { key: string; value: string; mod_revision: string }[]; count: string }>(member, '/v3/kv/range', {
      key: b64('gw/'),
      range_end: b64('gw0'),
    });
    assert.deepEqual(
      range.kvs.map((kv) => [Buffer.from(kv.key, 'base64').toString(), Buffer.from(kv.value, 'base64').toString()]),
      [['gw/a', 'from-json'], ['gw/b', 'from-grpc']],
    );
    assert.equal(range.count, '2');
    assert.equal(range.kvs[0].mod_revision, String(revision));
  });

  void it('HTTP/1.1 on the client port: /health, /version and /metrics', async () => {
    const health = await getJson(`${member.clientUrl}/health`);
    assert.equal(health.health, 'true');
    const version = await getJson(`${member.clientUrl}/version`);
    assert.match(version.etcdserver, /^3\.5\.\d+$/);
    assert.match(version.etcdcluster, /^3\.5\.\d+$/);

    const revision = await ctl.revision();
    const metrics = await metricsOf(member);
    assert.match(metrics, /^# TYPE kvstore_\w+ /m);
    assert.equal(sample(metrics, 'kvstore_server_has_leader'), 1);
    assert.equal(sample(metrics, 'kvstore_server_is_leader'), 1);
    assert.equal(sample(metrics, 'kvstore_debugging_mvcc_current_revision'), revision);
  });

  void it('HTTP/1.1 keep-alive: two requests on one connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await http1(`${member.clientUrl}/version`, { agent });
      await ctl.ok(['put', 'ka/k', 'kept-alive']);
      const second = await http1(`${member.clientUrl}/v3/kv/range`, { agent, method: 'POST', body: JSON.stringify({ key: b64('ka/k') }) });
      assert.equal(first.status, 200, first.body);
      assert.match((JSON.parse(first.body) as { etcdserver: string }).etcdserver, /^3\.5\./);
      assert.equal(second.status, 200, second.body);
      const kvs = (JSON.parse(second.body) as { kvs: { value: string }[] }).kvs;
      assert.equal(Buffer.from(kvs[0].value, 'base64').toString(), 'kept-alive');
      assert.deepEqual([first.reused, second.reused], [false, true], 'the second request reused the connection');
      assert.equal(second.localPort, first.localPort, 'same TCP connection');
    } finally {
      agent.destroy();
    }
  });

  void it('HTTP/1.1 from a client that ends its side right after its request: answered, then closed', async () => {
    const url = new URL(member.clientUrl);
    for (const path of ['/version', '/health', '/metrics']) {
      const socket = netConnect(Number(url.port), url.hostname, () => socket.end(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', () => undefined);
      const timer = setTimeout(() => socket.destroy(), 10_000);
      await once(socket, 'close');
      clearTimeout(timer);
      assert.match(Buffer.concat(chunks).toString(), /^HTTP\/1\.1 200 OK/, path);
    }
  });

  void it('puts acknowledged under load survive kill -9; the member comes back with the thread', async () => {
    const load = new WriteLoad({ endpoints: [member.endpoint], writers: 16, prefix: 'crash/', putTimeoutMs: 5_000 });
    try {
      await eventually('300 acknowledged puts', async () => (load.acked.size >= 300 ? true : undefined), { describe: () => `${load.acked.size} acked` });
      await member.kill9();
    } finally {
      await load.stop();
    }
    assert.ok(load.acked.size >= 300);
    await member.restart(); // same flags, data dir and environment: KVSTORE_CLIENT_THREADS=1 again
    assert.equal(member.env.KVSTORE_CLIENT_THREADS, '1');
    await eventually('the restarted member logs that it serves', async () => (lastRunRecords(member, SERVING).length === 1 ? true : undefined));
    await assertPortInThread(member, reports, portOf(member));
    const kv = openKv(member.endpoint);
    try {
      const { kvs } = await readPrefix(kv, 'crash/');
      assert.deepEqual(unmatchedAcks(load.acked, kvs).slice(0, 10), [], 'every acknowledged put is there, same value and modRevision');
    } finally {
      kv.close();
    }
    assert.equal(await ctl.ok(['get', 'txn/a', '--print-value-only']), lines('1'), 'earlier data too');
  });

  void it('SIGTERM while a watch is open stops the member with exit status 0', async () => {
    const from = (await ctl.revision()) + 1;
    const watch = spawnEtcdctl(member.endpoint, ['watch', 'stop/', '--prefix', `--rev=${from}`]);
    try {
      await ctl.ok(['put', 'stop/k', 'v']);
      await watch.waitFor(lines('PUT', 'stop/k', 'v'));
      const code = await member.stop('SIGTERM'); // null if the harness had to SIGKILL it after 15 s
      assert.equal(code, 0, `exit status after SIGTERM; log tail:\n${member.logs().slice(-3000)}`);
    } finally {
      await watch.stop('SIGINT');
    }
    // The output pipes may still deliver the last lines after the exit.
    await eventually("the log's last line", async () => (lastRunRecords(member, 'member stopped').length === 1 ? true : undefined));
    assert.equal(countRecords(member, 'client front-end thread failed'), 0);
  });
});

interface Cert {
  readonly cert: string;
  readonly key: string;
}

/** The first answer to `GET /version` over TLS with ALPN http/1.1 (and `cert` if given), or how the connection failed. */
function tlsVersionAnswer(address: MemberAddress, ca: string, cert?: Cert): Promise<string> {
  return new Promise((resolve) => {
    const identity = cert === undefined ? {} : { cert: readFileSync(cert.cert), key: readFileSync(cert.key) };
    const socket = tlsConnect({ host: address.host, port: address.clientPort, ca: readFileSync(ca), ...identity, ALPNProtocols: ['http/1.1'] }, () => {
      // TLS 1.3: a missing client certificate is refused by an alert after the client's handshake.
      socket.write(`GET /version HTTP/1.1\r\nHost: ${address.host}\r\nConnection: close\r\n\r\n`);
    });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (s: string) => (answer += s));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('error', (err) => resolve(`error: ${err.message}`));
    socket.on('close', () => resolve(answer === '' ? 'closed without an answer' : answer.split('\r\n')[0]));
  });
}

/** GET `path` over HTTP/2 with TLS (ALPN h2, as curl does): not a gRPC call, so its bytes are piped. */
function http2Get(origin: string, path: string, ca: string, who: Cert): Promise<{ status: number; body: string }> {
  return getOverHttp2(origin, path, { ca, cert: who.cert, key: who.key });
}

void describe("KVSTORE_CLIENT_THREADS=1 with TLS: the client certificate's CN is the user, through the front-end thread", () => {
  let files: TlsFiles;
  let member: Member;
  let address: MemberAddress;
  let alice: Cert;
  let stranger: Cert;
  let reports: string;
  const root = (): Cert => ({ cert: files.clientCert, key: files.clientKey });
  const tlsFlags = (who: Cert): string[] => ['--cacert', files.caCert, '--cert', who.cert, '--key', who.key, '--dial-timeout=3s', '--command-timeout=5s'];

  /** etcdctl as `who`: `<exit code> <stdout> <last stderr line>`, as tls-auth-common-name.test.ts. */
  const as = async (who: Cert, args: readonly string[]): Promise<string> => {
    const r = await etcdctl(address.clientUrl, [...tlsFlags(who), ...args]);
    return `${r.code} ${r.stdout.trim()} ${r.stderr.trim().split('\n').at(-1) ?? ''}`.trim();
  };

  before(async () => {
    const plain = await reserveAddress('front-end-tls');
    address = { ...plain, clientUrl: `https://${plain.host}:${plain.clientPort}` };
    files = await makeTlsFiles([address.host]);
    alice = await issueCertificate(files, 'alice', 'alice', []);
    stranger = await issueCertificate(files, 'nobody', 'nobody', []);
    reports = makeTempDir('front-end-tls-reports');
    member = await startMember('kvstore', {
      address,
      env: { ...THREADS, ...reportEnv(reports) },
      waitReady: false,
      args: [`--cert-file=${files.serverCert}`, `--key-file=${files.serverKey}`, '--client-cert-auth', `--trusted-ca-file=${files.caCert}`],
    });
    await eventually('the member answers over TLS', async () => {
      if (!member.running) throw new Error(`exited:\n${member.logs().slice(-3000)}`);
      return (await as(root(), ['endpoint', 'health'])).startsWith('0 ') ? true : undefined;
    }, { timeoutMs: 30_000 });
    for (const args of CN_AUTH_SETUP) {
      const out = await as(root(), args);
      assert.ok(out.startsWith('0 '), `${args.join(' ')}: ${out}`);
    }
  });

  after(async () => {
    await member?.stop('SIGTERM');
  });

  void it('the TLS listener runs in the thread and its serving line is logged by the member', async () => {
    await assertPortInThread(member, reports, address.clientPort);
    const serving = lastRunRecords(member, `${SERVING.slice(0, -1)} over TLS)`);
    assert.equal(serving.length, 1, member.logs().slice(-3000));
    assert.equal(serving[0].tls, true);
  });

  void it('unary calls: root writes, alice reads under her prefix only, a CN that names no user is refused', async () => {
    assert.equal(await as(root(), ['put', 'a1', 'v1']), '0 OK');
    assert.equal(await as(root(), ['put', 'b1', 'w1']), '0 OK');
    assert.equal(await as(alice, ['get', 'a1']), '0 a1\nv1');
    assert.equal(await as(alice, ['put', 'a2', 'x']), DENIED);
    assert.equal(await as(alice, ['get', 'b1']), DENIED);
    assert.equal(await as(stranger, ['get', 'a1']), DENIED);
    assert.equal(await as(alice, ['--user', 'root:rootpw', 'get', 'b1']), '0 b1\nw1', 'a password still wins over the certificate');
  });

  void it("Watch (a bidirectional stream) sees alice's CN: a key she may read is watched, another is refused", async () => {
    const from = Number(/"mod_revision":(\d+)/.exec(await as(root(), ['get', 'a1', '-w', 'json']))?.[1]);
    assert.ok(from > 0);
    const allowed = spawnEtcdctl(address.clientUrl, [...tlsFlags(alice), 'watch', 'a1', `--rev=${from}`]);
    try {
      await allowed.waitFor(lines('PUT', 'a1', 'v1'));
      assert.equal(await as(root(), ['put', 'a1', 'v2']), '0 OK');
      await allowed.waitFor(lines('PUT', 'a1', 'v1', 'PUT', 'a1', 'v2'));
    } finally {
      await allowed.stop('SIGINT');
    }
    assert.equal(allowed.stdout(), lines('PUT', 'a1', 'v1', 'PUT', 'a1', 'v2'));

    const refused = spawnEtcdctl(address.clientUrl, [...tlsFlags(alice), 'watch', 'b1', `--rev=${from}`]);
    const r = await Promise.race([
      refused.result(),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 15_000).unref()),
    ]);
    if (r === undefined) await refused.stop('SIGKILL');
    assert.ok(r !== undefined, `the refused watch did not end; stdout:\n${refused.stdout()}\nstderr:\n${refused.stderr()}`);
    assert.equal(r.stdout, '', 'no event of b1 reached alice');
    assert.equal(r.code, 5);
    // etcd 3.4 prints exactly this (the cancel reason is the gRPC error's text).
    assert.equal(r.stderr, lines('watch was canceled (rpc error: code = PermissionDenied desc = etcdserver: permission denied)', 'Error: watch is canceled by the server'));
  });

  void it('HTTP over TLS: /health over HTTP/2 and /version over HTTP/1.1 with a certificate; without one, no answer', async () => {
    const h2 = await http2Get(address.clientUrl, '/health', files.caCert, root());
    assert.equal(h2.status, 200, h2.body);
    assert.equal((JSON.parse(h2.body) as { health: string }).health, 'true');

    const withCert = await tlsVersionAnswer(address, files.caCert, root());
    assert.equal(withCert, 'HTTP/1.1 200 OK');
    const withoutCert = await tlsVersionAnswer(address, files.caCert);
    assert.doesNotMatch(withoutCert, /^HTTP\//, 'a client without a certificate gets no HTTP answer');
  });
});
