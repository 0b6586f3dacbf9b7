/**
 * The load generator of a bench run. `go` (the default) is kvload, a Go clientv3 program with
 * etcd `benchmark`-style flags that costs a few tens of µs of CPU per request; `node` is the
 * older grpc-js generator in load/ (about 100–170 µs per request: at 100 clients it takes a core
 * from the servers), kept for comparison, for put and range loads only.
 */
import { ensureKvload } from './kvload/build.js';
import { runKvload } from './kvload/run.js';
import type { LoadPlan, LoadResult, WindowObserver } from './load-spec.js';
import { runLoad } from './load/run-load.js';

export const GENERATORS = ['go', 'node'] as const;
export type GeneratorName = (typeof GENERATORS)[number];

export interface Generator {
  readonly name: GeneratorName;
  run(plan: LoadPlan, observer?: WindowObserver): Promise<LoadResult>;
}

/** How many threads / processes the generator may use. */
export interface GeneratorParallelism {
  /** node: child processes per run. */
  readonly nodeProcs: number;
  /** go: kvload's GOMAXPROCS (0: one per core). */
  readonly goProcs: number;
}

/** Prepares the generator (builds kvload when needed). */
export async function openGenerator(
  name: GeneratorName,
  outDir: string,
  parallelism: GeneratorParallelism,
  log: (line: string) => void,
): Promise<Generator> {
  if (name === 'node') return { name, run: (plan, observer) => runLoad(plan, parallelism.nodeProcs, observer) };
  const binary = await ensureKvload(outDir, log);
  return { name, run: (plan, observer) => runKvload(binary, plan, observer, parallelism.goProcs) };
}
