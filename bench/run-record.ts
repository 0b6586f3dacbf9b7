/**
 * What a bench run records: the run's settings and one Measurement per (row, round, server).
 * This is also the shape of the JSON written to `<out>/results-<timestamp>.json`.
 */
import type { EndpointOrder } from './endpoint-order.js';
import type { GeneratorName } from './generator.js';
import type { Goal, Row, RowId } from './rows.js';
import type { ServerName } from './servers.js';

/** One member of the deployment during one run. */
export interface MemberSample {
  readonly name: string;
  /** Role when the run started. */
  readonly role: 'leader' | 'follower' | 'unknown';
  /** Generator connections dealt to this member. */
  readonly connections: number;
  /** CPU of the member's process tree over the window, in cores. */
  readonly cores: number;
  /** VmRSS / VmHWM right after the run, bytes. */
  readonly rssBytes: number;
  readonly hwmBytes: number;
}

export interface Measurement {
  readonly row: RowId;
  readonly server: ServerName;
  readonly round: number;
  /** Successful requests per second in the window; watch rows: delivered events per second. */
  readonly throughput: number;
  /** Watch rows: puts per second that fed the watchers; null for the other rows. */
  readonly putThroughput: number | null;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly ok: number;
  readonly errors: number;
  readonly firstError: string | null;
  /** CPU of the load generator over the window, in cores (its own measure of its process). */
  readonly generatorCores: number;
  /** CPU of all members' process trees over the window, in cores. */
  readonly serverCores: number;
  /** CPU used by everything else on the machine over the window (busy − server − generator), in cores. */
  readonly otherCores: number;
  /** Sum over members of VmRSS / VmHWM right after this run, bytes. */
  readonly rssBytes: number;
  readonly hwmBytes: number;
  /** Per member, in the deployment's member order; empty when the run failed before sampling. */
  readonly members: readonly MemberSample[];
  /** Name of the agreed leader before and after the run (null: none agreed, or Status failed). */
  readonly leaderBefore: string | null;
  readonly leaderAfter: string | null;
  /** Why the run produced no numbers (a member exited, the generator failed), or null. */
  readonly failure: string | null;
}

export interface RunInfo {
  readonly startedAt: string;
  readonly servers: readonly ServerName[];
  readonly versions: Readonly<Partial<Record<ServerName, string>>>;
  /** Members per deployment (1: single-member mode). */
  readonly members: number;
  readonly endpointOrder: EndpointOrder;
  readonly goal: Goal | null;
  readonly rows: readonly Row[];
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** Unmeasured load on each deployment before its first row. */
  readonly serverWarmupSeconds: number;
  readonly valueSize: number;
  /** Load generator: `go` (kvload, GOMAXPROCS `generatorProcs`, 0 = per core) or `node` (grpc-js, `generatorProcs` child processes). */
  readonly generator: GeneratorName;
  readonly generatorProcs: number;
  /** Members bind `<hostPrefix>.<1|2>.<i>`. */
  readonly hostPrefix: string;
  readonly cores: number;
  /** 1-minute load average before the first and after the last run: a busy machine skews everything. */
  readonly loadAverage: { readonly before: number; readonly after: number };
}

export interface BenchRun {
  readonly info: RunInfo;
  readonly measurements: readonly Measurement[];
}

/** JSON form of the run (NaN → null by JSON.stringify). */
export function toJson(run: BenchRun): string {
  return JSON.stringify(run, null, 2);
}
