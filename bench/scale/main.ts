/**
 * The scale bench: `npm run bench:scale -- --keys 200000` loads N keys (16-byte keys, 256-byte
 * values, one Put each) into one etcd 3.4 member and one kvstore member, one after the other on
 * the same machine, and prints side by side: load rate, RSS 2 s and 10 s after the load, on-disk size,
 * `etcdctl snapshot save` time, range of 10 k keys, a clean stop (SIGTERM) and the restart after
 * it, RSS after the restart, a restart after kill -9 (kvstore then has no index checkpoint and
 * scans its backend) and physical compaction of half the history.
 *
 * Flags: --keys N (default 200000) · --key-size B (16) · --value-size B (256) · --clients C
 * (100) · --servers etcd,kvstore · --work-dir DIR (default a temp dir, removed unless --keep)
 * · --node-loader (skip the Go loader) · --etcd PATH (/usr/bin/etcd) · --etcdctl PATH ·
 * --kvstore-main PATH (another build's dist/server/main.js, to compare builds).
 * The loader is the Go clientv3 one in bench/scale/loader when Go is there (built offline),
 * else a Node etcd3 loader; the table says which. Timings are wall clock on a shared machine:
 * compare the two columns of one run, not runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGoLoader, keyOf, nodeLoader, type Loader } from './loaders.js';
import { cpuSeconds, dirBytes, freePort, rssBytes, startServer, type ServerSpec } from './server-proc.js';

interface Options {
  keys: number;
  keySize: number;
  valueSize: number;
  clients: number;
  servers: ('etcd' | 'kvstore')[];
  workDir: string | undefined;
  keep: boolean;
  nodeLoader: boolean;
  etcd: string;
  etcdctl: string;
  /** kvstore's main.js (default: this build's). */
  kvstoreMain: string | undefined;
}

interface Row {
  loadSeconds: number;
  loadRate: number;
  loaderCpuSeconds: number;
  /** Server CPU per put during the load, microseconds. */
  loadCpuMicrosPerPut: number;
  rssAfterLoad: number;
  /** RSS 10 s after the load: what a process settles at once idle (both servers return memory after a burst). */
  rssSettled: number;
  diskBytes: number;
  snapshotSeconds: number;
  snapshotCpuSeconds: number;
  snapshotBytes: number;
  rangeSeconds: number;
  rangeCpuSeconds: number;
  /** SIGTERM to exit. */
  stopSeconds: number;
  restartSeconds: number;
  restartCpuSeconds: number;
  rssAfterRestart: number;
  /** Spawn to healthy after a SIGKILL (no clean stop before). */
  crashRestartSeconds: number;
  compactSeconds: number;
  compactCpuSeconds: number;
}

function parseArgs(argv: readonly string[]): Options {
  const o: Options = { keys: 200_000, keySize: 16, valueSize: 256, clients: 100, servers: ['etcd', 'kvstore'], workDir: undefined, keep: false, nodeLoader: false, etcd: '/usr/bin/etcd', etcdctl: '/usr/bin/etcdctl', kvstoreMain: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const v = (): string => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${a} needs a value`);
      return x;
    };
    if (a === '--keys') o.keys = Number(v());
    else if (a === '--key-size') o.keySize = Number(v());
    else if (a === '--value-size') o.valueSize = Number(v());
    else if (a === '--clients') o.clients = Number(v());
    else if (a === '--servers') o.servers = v().split(',') as Options['servers'];
    else if (a === '--work-dir') o.workDir = v();
    else if (a === '--keep') o.keep = true;
    else if (a === '--node-loader') o.nodeLoader = true;
    else if (a === '--etcd') o.etcd = v();
    else if (a === '--etcdctl') o.etcdctl = v();
    else if (a === '--kvstore-main') o.kvstoreMain = v();
    else throw new Error(`unknown flag ${a}`);
  }
  if (!Number.isInteger(o.keys) || o.keys < 10_000) throw new Error('--keys must be an integer ≥ 10000');
  return o;
}

function etcdctl(o: Options, endpoint: string, args: readonly string[]): { seconds: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(o.etcdctl, [`--endpoints=${endpoint}`, '--command-timeout=600s', ...args], { encoding: 'utf8', env: { ...process.env, ETCDCTL_API: '3' }, maxBuffer: 64 << 20 });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`etcdctl ${args.join(' ')} failed: ${r.stderr}`);
  return { seconds, stdout: r.stdout };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function measure(o: Options, name: 'etcd' | 'kvstore', root: string, workDir: string, loader: Loader): Promise<Row> {
  const host = '127.0.0.1';
  const spec: ServerSpec = {
    name,
    command: name === 'etcd' ? [o.etcd] : [process.execPath, o.kvstoreMain ?? join(root, 'dist/server/main.js')],
    env: name === 'etcd' ? {} : { KVSTORE_SERVER_VERSION: '3.4.0' },
    dataDir: join(workDir, `${name}.data`),
    logFile: join(workDir, `${name}.log`),
    host,
    clientPort: await freePort(host),
    peerPort: await freePort(host),
  };
  const first = await startServer(spec);
  let server = first.server;
  try {
    process.stderr.write(`${name}: loading ${o.keys} keys…\n`);
    const cpuBeforeLoad = cpuSeconds(server.pid);
    const load = await loader.load({ endpoint: server.endpoint, keys: o.keys, keySize: o.keySize, valueSize: o.valueSize, clients: o.clients });
    const loadCpu = cpuSeconds(server.pid) - cpuBeforeLoad;
    await new Promise((r) => setTimeout(r, 2000));
    const rssAfterLoad = rssBytes(server.pid);
    await new Promise((r) => setTimeout(r, 8000));
    const rssSettled = rssBytes(server.pid);
    const diskBytes = await dirBytes(spec.dataDir);
    process.stderr.write(`${name}: snapshot save…\n`);
    const snapFile = join(workDir, `${name}.snapshot.db`);
    const cpuBeforeSnap = cpuSeconds(server.pid);
    const snap = etcdctl(o, server.endpoint, ['snapshot', 'save', snapFile]);
    const snapCpu = cpuSeconds(server.pid) - cpuBeforeSnap;
    const snapshotBytes = (await stat(snapFile)).size;
    await rm(snapFile, { force: true });
    const ranges: number[] = [];
    const cpuBeforeRanges = cpuSeconds(server.pid);
    for (let i = 0; i < 5; i++) {
      const from = keyOf(i * 10_000, o.keySize);
      const to = keyOf((i + 1) * 10_000, o.keySize);
      const r = etcdctl(o, server.endpoint, ['get', from, to, '--limit=10000']);
      if (r.stdout.split('\n').length < 20_000) throw new Error(`range returned ${r.stdout.split('\n').length / 2} keys`);
      ranges.push(r.seconds);
    }
    const rangeCpu = (cpuSeconds(server.pid) - cpuBeforeRanges) / 5;
    process.stderr.write(`${name}: restart…\n`);
    const stopping = performance.now();
    await server.stop();
    const stopSeconds = (performance.now() - stopping) / 1000;
    const again = await startServer(spec);
    server = again.server;
    const restartCpu = cpuSeconds(server.pid);
    await new Promise((r) => setTimeout(r, 2000));
    const rssAfterRestart = rssBytes(server.pid);
    process.stderr.write(`${name}: restart after kill -9…\n`);
    await server.stop('SIGKILL');
    const crashed = await startServer(spec);
    server = crashed.server;
    const status = JSON.parse(etcdctl(o, server.endpoint, ['endpoint', 'status', '-w', 'json']).stdout) as { Status: { header: { revision: number } } }[];
    const rev = status[0]!.Status.header.revision;
    process.stderr.write(`${name}: compact at ${Math.floor(rev / 2)}…\n`);
    const cpuBeforeCompact = cpuSeconds(server.pid);
    const compact = etcdctl(o, server.endpoint, ['compact', String(Math.floor(rev / 2)), '--physical']);
    const compactCpu = cpuSeconds(server.pid) - cpuBeforeCompact;
    return {
      loadSeconds: load.seconds,
      loadRate: load.rate,
      loaderCpuSeconds: load.cpuSeconds,
      loadCpuMicrosPerPut: (loadCpu * 1e6) / o.keys,
      rssAfterLoad,
      rssSettled,
      diskBytes,
      snapshotSeconds: snap.seconds,
      snapshotCpuSeconds: snapCpu,
      snapshotBytes,
      rangeSeconds: median(ranges),
      rangeCpuSeconds: rangeCpu,
      stopSeconds,
      restartSeconds: again.healthyMs / 1000,
      restartCpuSeconds: restartCpu,
      rssAfterRestart,
      crashRestartSeconds: crashed.healthyMs / 1000,
      compactSeconds: compact.seconds,
      compactCpuSeconds: compactCpu,
    };
  } finally {
    await server.stop();
  }
}

const MiB = (n: number): string => `${(n / 2 ** 20).toFixed(0)} MiB`;
const MB = (n: number): string => `${(n / 1e6).toFixed(0)} MB`;
const sec = (n: number): string => `${n.toFixed(2)} s`;

function table(o: Options, loader: Loader, rows: Partial<Record<'etcd' | 'kvstore', Row>>): string {
  const lines: [string, (r: Row) => number, (n: number) => string][] = [
    ['load rate (keys/s)', (r) => r.loadRate, (n) => n.toFixed(0)],
    ['server CPU per put during the load', (r) => r.loadCpuMicrosPerPut, (n) => `${n.toFixed(0)} µs`],
    ['loader CPU', (r) => r.loaderCpuSeconds, sec],
    ['RSS 2 s after load', (r) => r.rssAfterLoad, MiB],
    ['RSS 10 s after load', (r) => r.rssSettled, MiB],
    ['on-disk size after load', (r) => r.diskBytes, MB],
    ['`etcdctl snapshot save`', (r) => r.snapshotSeconds, sec],
    ['  server CPU for it', (r) => r.snapshotCpuSeconds, sec],
    ['snapshot file size', (r) => r.snapshotBytes, MB],
    ['range of 10 k keys (etcdctl get, median of 5)', (r) => r.rangeSeconds, sec],
    ['  server CPU per range (mean)', (r) => r.rangeCpuSeconds, sec],
    ['clean stop (SIGTERM to exit)', (r) => r.stopSeconds, sec],
    ['restart to healthy', (r) => r.restartSeconds, sec],
    ['  server CPU until healthy', (r) => r.restartCpuSeconds, sec],
    ['RSS after restart', (r) => r.rssAfterRestart, MiB],
    ['restart to healthy after kill -9', (r) => r.crashRestartSeconds, sec],
    ['compaction of half the history (--physical)', (r) => r.compactSeconds, sec],
    ['  server CPU for it', (r) => r.compactCpuSeconds, sec],
  ];
  const e = rows.etcd;
  const k = rows.kvstore;
  const out = [`${o.keys} keys, ${o.keySize}-byte keys, ${o.valueSize}-byte values, ${o.clients} clients, loader: ${loader.name}`, '', '| | etcd 3.4 | kvstore | ratio |', '|---|---|---|---|'];
  for (const [label, get, fmt] of lines) {
    const ev = e === undefined ? undefined : get(e);
    const kv = k === undefined ? undefined : get(k);
    const ratio = ev !== undefined && kv !== undefined && ev > 0 ? `${(kv / ev).toFixed(2)}×` : '';
    out.push(`| ${label} | ${ev === undefined ? '' : fmt(ev)} | ${kv === undefined ? '' : fmt(kv)} | ${ratio} |`);
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  const workDir = o.workDir ?? (await mkdtemp(join(tmpdir(), 'kvstore-scale-')));
  try {
    const loader = (o.nodeLoader ? undefined : await buildGoLoader(root, workDir)) ?? nodeLoader;
    const rows: Partial<Record<'etcd' | 'kvstore', Row>> = {};
    for (const name of o.servers) rows[name] = await measure(o, name, root, workDir, loader);
    const text = table(o, loader, rows);
    process.stdout.write(`${text}\n`);
    await writeFile(join(workDir, 'scale-result.json'), JSON.stringify({ options: o, loader: loader.name, rows }, null, 2));
  } finally {
    if (!o.keep && o.workDir === undefined) await rm(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
