/**
 * `npm run bench`: real etcd 3.4 vs kvstore, side by side, same load generator, alternating runs.
 *
 *   node dist/bench/main.js [--seconds 5] [--warmup 1] [--rounds 2] [--only etcd|kvstore]
 *     [--rows put-1,put-100,range-lin,range-ser] [--clients 100] [--connections 10] [--procs 2]
 *     [--value-size 256] [--key-space 100000] [--etcd-bin /usr/bin/etcd]
 *     [--kvstore-bin dist/server/main.js] [--kvstore-cmd <executable>] [--kvstore-flag=--foo=bar …]
 *     [--out .bench]
 *
 * For each row, for each round, each server runs once (etcd, then kvstore), so the two servers
 * see the same machine state as closely as possible. Markdown goes to stdout, progress to stderr,
 * the full run as JSON to <out>/results-<timestamp>.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { quantile } from './load/histogram.js';
import { openKv } from './load/channel.js';
import { prepareRange } from './load/range.js';
import { runLoad } from './load/run-load.js';
import type { LoadParams } from './load/protocol.js';
import { cpuSecondsOf, machineBusySeconds, memoryOf } from './proc-stats.js';
import { renderMarkdown, toJson, type BenchRun, type Measurement, type RunInfo } from './report.js';
import { isRowId, rows as allRows, ROW_IDS, type Row } from './rows.js';
import { SERVER_NAMES, startServer, type RunningServer, type ServerConfig, type ServerName } from './servers.js';

const { values: argv } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '2' },
    only: { type: 'string' },
    rows: { type: 'string', default: ROW_IDS.join(',') },
    clients: { type: 'string', default: '100' },
    connections: { type: 'string', default: '10' },
    procs: { type: 'string', default: '2' },
    'value-size': { type: 'string', default: '256' },
    'key-space': { type: 'string', default: '100000' },
    'etcd-bin': { type: 'string', default: '/usr/bin/etcd' },
    'kvstore-bin': { type: 'string', default: fileURLToPath(new URL('../server/main.js', import.meta.url)) },
    'kvstore-flag': { type: 'string', multiple: true, default: [] },
    'kvstore-cmd': { type: 'string' },
    out: { type: 'string', default: '.bench' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

if (argv.help) {
  console.log('usage: see bench/README.md');
  process.exit(0);
}

function positive(name: string, s: string): number {
  const n = Number(s);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${s}`);
  return n;
}

const seconds = positive('seconds', argv.seconds);
const warmup = Number(argv.warmup);
const rounds = Math.floor(positive('rounds', argv.rounds));
const procs = Math.floor(positive('procs', argv.procs));
const params: LoadParams = {
  valueSize: Math.floor(positive('value-size', argv['value-size'])),
  keySpace: Math.floor(positive('key-space', argv['key-space'])),
  serializable: false,
};
const servers: ServerName[] = argv.only === undefined ? [...SERVER_NAMES] : [argv.only as ServerName];
if (!servers.every((s) => (SERVER_NAMES as readonly string[]).includes(s))) {
  throw new Error(`--only must be one of ${SERVER_NAMES.join(', ')}`);
}
const rowTable = allRows(Math.floor(positive('clients', argv.clients)), Math.floor(positive('connections', argv.connections)));
const rowIds = argv.rows.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
for (const id of rowIds) if (!isRowId(id)) throw new Error(`unknown row ${id}; rows are ${ROW_IDS.join(', ')}`);
const selectedRows: Row[] = rowIds.filter(isRowId).map((id) => rowTable[id]);

const startedAt = new Date().toISOString();
const stamp = startedAt.replace(/[:.]/g, '-');
const outDir = resolve(argv.out);
const logDir = join(outDir, 'logs');
const configs: Record<ServerName, ServerConfig> = {
  etcd: {
    name: 'etcd',
    command: [argv['etcd-bin']],
    host: '127.0.0.2',
    extraArgs: ['--logger', 'zap', '--log-level', 'warn'],
    logFile: join(logDir, `${stamp}-etcd.log`),
  },
  kvstore: {
    name: 'kvstore',
    command: argv['kvstore-cmd'] !== undefined ? [argv['kvstore-cmd']] : [process.execPath, argv['kvstore-bin']],
    host: '127.0.0.3',
    extraArgs: argv['kvstore-flag'],
    logFile: join(logDir, `${stamp}-kvstore.log`),
  },
};

function versionOf(cfg: ServerConfig): string {
  const res = spawnSync(cfg.command[0], [...cfg.command.slice(1), '--version'], { encoding: 'utf8', timeout: 5000 });
  const m = /(\d+\.\d+\.\d+\S*)/.exec(`${res.stdout ?? ''}`);
  return m ? m[1] : 'unknown';
}

const log = (msg: string): void => {
  process.stderr.write(`[bench] ${msg}\n`);
};

async function main(): Promise<void> {
  const running = new Map<ServerName, RunningServer>();
  const stopAll = async (): Promise<void> => {
    await Promise.all([...running.values()].map((s) => s.stop()));
    running.clear();
  };
  const onSignal = (): void => {
    log('interrupted; stopping servers');
    void stopAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const loadBefore = loadavg()[0];
  const info0 = {
    startedAt,
    servers,
    versions: Object.fromEntries(servers.map((s) => [s, versionOf(configs[s])])),
    rows: selectedRows,
    rounds,
    seconds,
    warmupSeconds: warmup,
    valueSize: params.valueSize,
    keySpace: params.keySpace,
    generatorProcs: procs,
    cores: availableParallelism(),
  };
  const measurements: Measurement[] = [];
  mkdirSync(logDir, { recursive: true });
  try {
    for (const name of servers) {
      const srv = await startServer(configs[name]);
      running.set(name, srv);
      log(`${name} serving on ${srv.target} (pid ${srv.pid}, log ${srv.logFile})`);
      if (selectedRows.some((r) => r.kind === 'range')) {
        const kv = openKv(srv.target);
        try {
          await prepareRange(kv, params);
        } finally {
          kv.close();
        }
      }
    }
    for (const row of selectedRows) {
      for (let round = 1; round <= rounds; round++) {
        for (const name of servers) {
          const srv = running.get(name) as RunningServer;
          measurements.push(await measureOrFail(srv, row, round));
        }
      }
    }
  } finally {
    await stopAll();
  }

  const info: RunInfo = { ...info0, loadAverage: { before: loadBefore, after: loadavg()[0] } };
  const run: BenchRun = { info, measurements };
  console.log(renderMarkdown(run));
  const file = join(outDir, `results-${stamp}.json`);
  writeFileSync(file, toJson(run) + '\n');
  log(`results written to ${file}`);
}

/** One run; a failed run (server gone, generator error) becomes a measurement with `failure` set. */
async function measureOrFail(srv: RunningServer, row: Row, round: number): Promise<Measurement> {
  const failed = (failure: string): Measurement => {
    log(`${row.id} round ${round} ${srv.name}: FAILED: ${failure}`);
    return {
      row: row.id, server: srv.name, round, throughput: NaN, p50Ms: NaN, p99Ms: NaN, p999Ms: NaN, ok: 0, errors: 0,
      firstError: null, generatorCores: NaN, serverCores: NaN, otherCores: NaN, rssBytes: NaN, hwmBytes: NaN, failure,
    };
  };
  if (srv.exited()) return failed(`server had exited (log: ${srv.logFile})`);
  try {
    const m = await measure(srv, row, round);
    return srv.exited() ? failed(`server exited during the run (log: ${srv.logFile})`) : m;
  } catch (err) {
    return failed(err instanceof Error ? err.message : String(err));
  }
}

async function measure(srv: RunningServer, row: Row, round: number): Promise<Measurement> {
  let cpu0 = 0;
  let t0 = 0;
  let busy0 = 0;
  let serverCores = NaN;
  let machineCores = NaN;
  const result = await runLoad(
    {
      kind: row.kind,
      target: srv.target,
      clients: row.clients,
      connections: row.connections,
      procs,
      params: { ...params, serializable: row.serializable },
      warmupMs: warmup * 1000,
      measureMs: seconds * 1000,
    },
    {
      windowStart() {
        cpu0 = cpuSecondsOf(srv.pid);
        busy0 = machineBusySeconds();
        t0 = performance.now();
      },
      windowEnd() {
        const wall = (performance.now() - t0) / 1000;
        serverCores = (cpuSecondsOf(srv.pid) - cpu0) / wall;
        machineCores = (machineBusySeconds() - busy0) / wall;
      },
    },
  );
  const mem = memoryOf(srv.pid);
  const m: Measurement = {
    row: row.id,
    server: srv.name,
    round,
    throughput: result.throughput,
    p50Ms: quantile(result.histogram, 0.5) / 1000,
    p99Ms: quantile(result.histogram, 0.99) / 1000,
    p999Ms: quantile(result.histogram, 0.999) / 1000,
    ok: result.ok,
    errors: result.errors,
    firstError: result.firstError,
    generatorCores: result.generatorCores,
    serverCores,
    otherCores: Math.max(0, machineCores - serverCores - result.generatorCores),
    rssBytes: mem.rssBytes,
    hwmBytes: mem.hwmBytes,
    failure: null,
  };
  log(
    `${row.id} round ${round} ${srv.name}: ${Math.round(m.throughput)} ops/s, p50 ${m.p50Ms.toFixed(2)} ms, ` +
      `p99 ${m.p99Ms.toFixed(2)} ms, server ${serverCores.toFixed(2)} cores, generator ${m.generatorCores.toFixed(2)} cores, ` +
      `other ${m.otherCores.toFixed(2)} cores` +
      (m.errors > 0 ? `, ${m.errors} errors (${m.firstError})` : ''),
  );
  return m;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
