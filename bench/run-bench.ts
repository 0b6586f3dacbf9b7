/**
 * One bench run: start a deployment of each server (N members each), prepare the data, then for
 * each row, for each round, run the load once against each server in turn (etcd, then kvstore),
 * so both see the same machine state as closely as possible. Deployments are always stopped.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { startDeployment, type Deployment } from './deployment.js';
import type { EndpointOrder } from './endpoint-order.js';
import { openGenerator, type GeneratorName } from './generator.js';
import { measureOrFail, type MeasureOptions } from './measure.js';
import { warmDeployment } from './server-warmup.js';
import { prepareRangeKey } from './prepare.js';
import type { Goal, Row } from './rows.js';
import type { BenchRun, Measurement } from './run-record.js';
import type { ServerConfig, ServerName } from './servers.js';

export interface BenchOptions {
  readonly servers: readonly ServerConfig[];
  readonly members: number;
  readonly rows: readonly Row[];
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** Unmeasured load on each deployment before its first row (server-warmup.ts); 0 = none. */
  readonly serverWarmupSeconds: number;
  readonly generator: GeneratorName;
  /** Node generator only: child processes per run. */
  readonly procs: number;
  /** Go generator only: GOMAXPROCS of kvload (0: one per core). */
  readonly goProcs: number;
  readonly valueSize: number;
  /** Where the Go generator is built (`<out>/bin`, `<out>/go-cache`). */
  readonly outDir: string;
  readonly hostPrefix: string;
  readonly endpointOrder: EndpointOrder;
  readonly goal: Goal | null;
  readonly logDir: string;
  readonly startedAt: string;
}

export interface BenchHooks {
  readonly log: (line: string) => void;
  /** Deployments currently running; the caller stops them on a signal. */
  readonly live: Set<Deployment>;
}

function versionOf(cfg: ServerConfig): string {
  const res = spawnSync(cfg.command[0], [...cfg.command.slice(1), '--version'], { encoding: 'utf8', timeout: 5000 });
  const m = /(\d+\.\d+\.\d+\S*)/.exec(`${res.stdout ?? ''}`);
  return m ? m[1] : 'unknown';
}

/** The measured window of a cold row: about the first 1 500–2 000 puts of one client. */
const COLD_SECONDS = 2;

/**
 * A cold row, round by round: each server gets a deployment started for the round alone and
 * measured from its first request (no server warm-up, no generator warm-up), then stopped.
 */
async function measureCold(row: Row, opts: BenchOptions, hooks: BenchHooks, measureOpts: MeasureOptions): Promise<Measurement[]> {
  const out: Measurement[] = [];
  for (let round = 1; round <= opts.rounds; round++) {
    for (const cfg of opts.servers) {
      const d = await startDeployment(cfg, opts.members);
      hooks.live.add(d);
      try {
        out.push(await measureOrFail(d, row, round, { ...measureOpts, warmupSeconds: 0, seconds: COLD_SECONDS }));
      } finally {
        await d.stop();
        hooks.live.delete(d);
      }
    }
  }
  return out;
}

export async function runBench(opts: BenchOptions, hooks: BenchHooks): Promise<BenchRun> {
  const { log, live } = hooks;
  const loadBefore = loadavg()[0];
  const versions: Partial<Record<ServerName, string>> = {};
  for (const cfg of opts.servers) versions[cfg.name] = versionOf(cfg);
  mkdirSync(opts.logDir, { recursive: true });
  const measurements: Measurement[] = [];
  const deployments: Deployment[] = [];
  const generator = await openGenerator(opts.generator, opts.outDir, { nodeProcs: opts.procs, goProcs: opts.goProcs }, log);
  const measureOpts: MeasureOptions = {
    generator,
    valueSize: opts.valueSize,
    warmupSeconds: opts.warmupSeconds,
    seconds: opts.seconds,
    endpointOrder: opts.endpointOrder,
    log,
  };
  for (const row of opts.rows.filter((r) => r.cold)) measurements.push(...(await measureCold(row, opts, hooks, measureOpts)));
  const warmRows = opts.rows.filter((r) => !r.cold);
  try {
    for (const cfg of opts.servers) {
      const d = await startDeployment(cfg, opts.members);
      live.add(d);
      deployments.push(d);
      for (const m of d.members) log(`${cfg.name}: ${m.name} serving on ${m.target} (pid ${m.process.pid}, log ${m.process.logFile})`);
      if (warmRows.some((r) => r.load.kind === 'range')) await prepareRangeKey(d, opts.valueSize);
    }
    for (const d of deployments) {
      log(`${d.server}: warming up for ${opts.serverWarmupSeconds} s (unmeasured puts)`);
      await warmDeployment(d, opts.serverWarmupSeconds, generator, opts.valueSize);
    }
    for (const row of warmRows) {
      for (let round = 1; round <= opts.rounds; round++) {
        for (const d of deployments) measurements.push(await measureOrFail(d, row, round, measureOpts));
      }
    }
  } finally {
    await Promise.all(
      deployments.map(async (d) => {
        await d.stop();
        live.delete(d);
      }),
    );
  }
  return {
    info: {
      startedAt: opts.startedAt,
      servers: opts.servers.map((s) => s.name),
      versions,
      members: opts.members,
      endpointOrder: opts.endpointOrder,
      goal: opts.goal,
      rows: opts.rows,
      rounds: opts.rounds,
      seconds: opts.seconds,
      warmupSeconds: opts.warmupSeconds,
      serverWarmupSeconds: opts.serverWarmupSeconds,
      valueSize: opts.valueSize,
      generator: opts.generator,
      generatorProcs: opts.generator === 'go' ? opts.goProcs : opts.procs,
      hostPrefix: opts.hostPrefix,
      cores: availableParallelism(),
      loadAverage: { before: loadBefore, after: loadavg()[0] },
    },
    measurements,
  };
}
