/**
 * `npm run bench`: real etcd 3.4 vs kvstore, side by side, same load generator, alternating runs.
 *
 *   node dist/bench/main.js [--members 1] [--seconds 5] [--warmup 1] [--server-warmup 5] [--rounds 2] [--only etcd|kvstore]
 *     [--rows put-1,put-100,…] [--clients 100] [--connections 10] [--generator go|node] [--go-procs 1] [--procs 2]
 *     [--endpoint-order followers-first|leader-first] [--value-size 256] [--host-prefix 127.77]
 *     [--etcd-bin /usr/bin/etcd] [--kvstore-bin dist/server/main.js] [--kvstore-cmd <executable>]
 *     [--kvstore-flag=--foo=bar …] [--kvstore-env NAME=value …] [--out .bench]
 *
 * The only place that reads argv and signals. Markdown goes to stdout, progress to stderr, the
 * full run as JSON to <out>/results-<timestamp>.json. See bench/README.md.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Deployment } from './deployment.js';
import { ENDPOINT_ORDERS, type EndpointOrder } from './endpoint-order.js';
import { renderMarkdown } from './report.js';
import { GOALS, ROW_IDS, selectRows } from './rows.js';
import { toJson } from './run-record.js';
import { runBench } from './run-bench.js';
import { checkHostPrefix, DEFAULT_HOST_PREFIX, SERVER_NAMES, type ServerConfig, type ServerName } from './servers.js';
import { GENERATORS, type GeneratorName } from './generator.js';

const { values: argv } = parseArgs({
  options: {
    members: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    'server-warmup': { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    only: { type: 'string' },
    rows: { type: 'string' },
    clients: { type: 'string' },
    connections: { type: 'string' },
    generator: { type: 'string', default: 'go' },
    procs: { type: 'string', default: '2' },
    'go-procs': { type: 'string', default: '1' },
    'host-prefix': { type: 'string', default: DEFAULT_HOST_PREFIX },
    'endpoint-order': { type: 'string', default: 'followers-first' },
    'value-size': { type: 'string', default: '256' },
    'etcd-bin': { type: 'string', default: '/usr/bin/etcd' },
    'kvstore-bin': { type: 'string', default: fileURLToPath(new URL('../server/main.js', import.meta.url)) },
    'kvstore-flag': { type: 'string', multiple: true, default: [] },
    'kvstore-env': { type: 'string', multiple: true, default: [] },
    'kvstore-cmd': { type: 'string' },
    out: { type: 'string', default: '.bench' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

if (argv.help) {
  console.log(`usage: see bench/README.md; rows: ${ROW_IDS.join(', ')}`);
  process.exit(0);
}

function positive(name: string, s: string): number {
  const n = Number(s);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${s}`);
  return n;
}
function nonNegative(name: string, s: string): number {
  const n = Number(s);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number ≥ 0, got ${s}`);
  return n;
}
const positiveInt = (name: string, s: string): number => Math.floor(positive(name, s));
const optionalInt = (name: string, s: string | undefined): number | undefined => (s === undefined ? undefined : positiveInt(name, s));

const members = positiveInt('members', argv.members);
const topology = members === 1 ? 'single' : 'cluster';
const serverNames: ServerName[] = argv.only === undefined ? [...SERVER_NAMES] : [argv.only as ServerName];
if (!serverNames.every((s) => (SERVER_NAMES as readonly string[]).includes(s))) {
  throw new Error(`--only must be one of ${SERVER_NAMES.join(', ')}`);
}
const endpointOrder = argv['endpoint-order'] as EndpointOrder;
if (!ENDPOINT_ORDERS.includes(endpointOrder)) throw new Error(`--endpoint-order must be one of ${ENDPOINT_ORDERS.join(', ')}`);
const generator = argv.generator as GeneratorName;
if (!GENERATORS.includes(generator)) throw new Error(`--generator must be one of ${GENERATORS.join(', ')}`);
const hostPrefix = checkHostPrefix(argv['host-prefix']);
const rowIds = argv.rows?.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
const selected = selectRows(rowIds, topology, {
  clients: optionalInt('clients', argv.clients),
  connections: optionalInt('connections', argv.connections),
});
// The node generator runs put and range loads only: drop the others from the default rows, refuse them when asked for.
const nodeCanRun = (kind: string): boolean => kind === 'put' || kind === 'range';
const refused = generator === 'node' && rowIds !== undefined ? selected.filter((r) => !nodeCanRun(r.load.kind)) : [];
if (refused.length > 0) throw new Error(`--generator node runs put and range rows only, not ${refused.map((r) => r.id).join(', ')}`);
const rows = generator === 'node' ? selected.filter((r) => nodeCanRun(r.load.kind)) : selected;

const startedAt = new Date().toISOString();
const stamp = startedAt.replace(/[:.]/g, '-');
const outDir = resolve(argv.out);
const logDir = join(outDir, 'logs');
const configs: Record<ServerName, ServerConfig> = {
  etcd: {
    name: 'etcd',
    command: [argv['etcd-bin']],
    extraArgs: ['--logger', 'zap', '--log-level', 'warn'],
    logDir,
    logPrefix: stamp,
    hostPrefix,
  },
  kvstore: {
    name: 'kvstore',
    command: argv['kvstore-cmd'] !== undefined ? [argv['kvstore-cmd']] : [process.execPath, argv['kvstore-bin']],
    extraArgs: argv['kvstore-flag'],
    extraEnv: envAssignments(argv['kvstore-env']),
    logDir,
    logPrefix: stamp,
    hostPrefix,
  },
};

/** `NAME=value` arguments as an environment; anything else stops the bench with a usage error. */
function envAssignments(items: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf('=');
    if (at <= 0) {
      process.stderr.write(`bench: --kvstore-env wants NAME=value, got ${JSON.stringify(item)}\n`);
      process.exit(2);
    }
    env[item.slice(0, at)] = item.slice(at + 1);
  }
  return env;
}

const log = (msg: string): void => {
  process.stderr.write(`[bench] ${msg}\n`);
};

async function main(): Promise<void> {
  const live = new Set<Deployment>();
  const onSignal = (): void => {
    log('interrupted; stopping servers');
    void Promise.all([...live].map((d) => d.stop())).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const run = await runBench(
    {
      servers: serverNames.map((s) => configs[s]),
      members,
      rows,
      rounds: positiveInt('rounds', argv.rounds),
      seconds: positive('seconds', argv.seconds),
      warmupSeconds: Number(argv.warmup),
      serverWarmupSeconds: nonNegative('server-warmup', argv['server-warmup']),
      generator,
      procs: positiveInt('procs', argv.procs),
      goProcs: Math.floor(nonNegative('go-procs', argv['go-procs'])),
      valueSize: positiveInt('value-size', argv['value-size']),
      outDir,
      hostPrefix,
      endpointOrder,
      goal: GOALS[topology],
      logDir,
      startedAt,
    },
    { log, live },
  );
  console.log(renderMarkdown(run));
  const file = join(outDir, `results-${stamp}.json`);
  writeFileSync(file, toJson(run) + '\n');
  log(`results written to ${file}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
