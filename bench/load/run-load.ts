/**
 * Driver side of the Node load generator (`--generator node`): forks the child processes of one
 * run, starts them together, merges their results. A run is bounded: children that do not report
 * in time are killed and the run fails. Put and range loads only.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { LoadPlan, LoadResult, WindowObserver } from '../load-spec.js';
import { mergeInto, newHistogram } from './histogram.js';
import type { FromWorker, LoadKindName, LoadParams, ToWorker, WorkerResult, WorkerSpec } from './protocol.js';

/** One run split for the children: which kind, with which parameters, over how many processes. */
export interface NodePlan {
  readonly kind: LoadKindName;
  readonly targets: readonly string[];
  readonly clients: number;
  readonly connections: number;
  /** Child processes; clients and connections are split among them as evenly as possible. */
  readonly procs: number;
  readonly params: LoadParams;
  readonly warmupMs: number;
  readonly measureMs: number;
}

/** The Node generator's form of a plan; throws for the loads it does not implement. */
export function nodePlan(plan: LoadPlan, procs: number): NodePlan {
  const { load } = plan;
  if (load.kind !== 'put' && load.kind !== 'range') {
    throw new Error(`the node generator runs put and range loads only, not ${load.kind}; use --generator go`);
  }
  return {
    kind: load.kind,
    targets: plan.targets,
    clients: plan.clients,
    connections: plan.connections,
    procs,
    params: {
      valueSize: load.kind === 'put' ? (load.valueBytes ?? plan.valueSize) : plan.valueSize,
      keySpace: load.kind === 'put' ? load.keySpace : 1,
      sequentialKeys: load.kind === 'put' && load.sequentialKeys,
      serializable: load.kind === 'range' && load.serializable,
    },
    warmupMs: plan.warmupMs,
    measureMs: plan.measureMs,
  };
}

const WORKER = new URL('./worker.js', import.meta.url);

function share(total: number, parts: number, index: number): number {
  return Math.floor(total / parts) + (index < total % parts ? 1 : 0);
}

/** Splits the plan into per-child specs; never creates a child with zero clients. */
export function splitPlan(plan: NodePlan): WorkerSpec[] {
  const procs = Math.max(1, Math.min(plan.procs, plan.connections, plan.clients));
  const specs: WorkerSpec[] = [];
  let firstConnection = 0;
  for (let i = 0; i < procs; i++) {
    const connections = share(plan.connections, procs, i);
    specs.push({
      kind: plan.kind,
      targets: plan.targets,
      firstConnection,
      connections,
      clients: share(plan.clients, procs, i),
      workerIndex: i,
      workers: procs,
      params: plan.params,
      warmupMs: plan.warmupMs,
      measureMs: plan.measureMs,
    });
    firstConnection += connections;
  }
  return specs;
}

class Child {
  private readonly waiters: Array<(msg: FromWorker) => void> = [];
  private readonly queue: FromWorker[] = [];
  private exited: string | null = null;

  constructor(readonly proc: ChildProcess) {
    proc.on('message', (msg: FromWorker) => this.push(msg));
    proc.on('exit', (code, signal) => {
      this.exited = `load worker exited (code ${code}, signal ${signal})`;
      this.push({ type: 'failed', message: this.exited });
    });
  }

  private push(msg: FromWorker): void {
    const w = this.waiters.shift();
    if (w) w(msg);
    else this.queue.push(msg);
  }

  next(): Promise<FromWorker> {
    const m = this.queue.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  send(msg: ToWorker): void {
    if (this.exited === null && this.proc.connected) this.proc.send(msg);
  }
}

async function expect<T extends FromWorker['type']>(c: Child, type: T): Promise<Extract<FromWorker, { type: T }>> {
  const msg = await c.next();
  if (msg.type === 'failed') throw new Error(msg.message);
  if (msg.type !== type) throw new Error(`load worker sent ${msg.type}, expected ${type}`);
  return msg as Extract<FromWorker, { type: T }>;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Runs one load plan to completion over `procs` children. Children are always reaped, also on failure. */
export async function runLoad(loadPlan: LoadPlan, procs: number, observer?: WindowObserver): Promise<LoadResult> {
  const plan = nodePlan(loadPlan, procs);
  const timers: NodeJS.Timeout[] = [];
  const specs = splitPlan(plan);
  const children = specs.map(
    () => new Child(fork(WORKER, [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })),
  );
  try {
    specs.forEach((spec, i) => children[i].send({ type: 'connect', spec }));
    await withTimeout(Promise.all(children.map((c) => expect(c, 'ready'))), 15_000, 'connecting load workers');
    const startAt = performance.timeOrigin + performance.now() + 50;
    for (const c of children) c.send({ type: 'go', startAt });
    // The observer's window end is awaited with the results, so its sample is always taken.
    let observed: Promise<void> = Promise.resolve();
    if (observer) {
      const untilStart = startAt + plan.warmupMs - (performance.timeOrigin + performance.now());
      timers.push(setTimeout(() => observer.windowStart(), Math.max(0, untilStart)));
      observed = new Promise((resolve) => {
        timers.push(setTimeout(() => resolve(observer.windowEnd()), Math.max(0, untilStart + plan.measureMs)));
      });
    }
    const messages = await withTimeout(
      Promise.all(children.map((c) => expect(c, 'result'))),
      plan.warmupMs + plan.measureMs + 15_000,
      'load run',
    );
    await observed;
    const results: WorkerResult[] = messages.map((m) => m.result);
    const histogram = newHistogram();
    let throughput = 0;
    let cores = 0;
    for (const r of results) {
      mergeInto(histogram, r.histogram);
      throughput += r.ok / (r.windowMs / 1000);
      cores += r.cpuMicros / 1000 / r.windowMs;
    }
    return {
      throughput,
      ok: results.reduce((n, r) => n + r.ok, 0),
      errors: results.reduce((n, r) => n + r.errors, 0),
      firstError: results.find((r) => r.firstError !== null)?.firstError ?? null,
      histogram,
      generatorCores: cores,
      putThroughput: null,
    };
  } finally {
    for (const t of timers) clearTimeout(t);
    for (const c of children) c.send({ type: 'exit' });
    await Promise.all(children.map((c) => reap(c.proc)));
  }
}

function reap(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
    proc.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
