/**
 * What one run asks of a load generator, independent of which generator runs it: the load shape
 * (LoadSpec), where and how many clients (LoadPlan), what came back (LoadResult), and the hook
 * that lets the driver sample the servers over exactly the generator's measurement window. Pure
 * types plus the key everyone agrees the range loads read.
 */
import type { Histogram } from './load/histogram.js';

/** The key the range loads read; written once before the first run (prepare.ts). */
export const RANGE_KEY = 'bench/range/key';

export type LoadSpec =
  /**
   * Puts of `valueSize` bytes (the row's own `valueBytes` when set, else the run's); keys uniformly
   * at random among `keySpace`, or in turn when `sequentialKeys`.
   */
  | { readonly kind: 'put'; readonly keySpace: number; readonly sequentialKeys: boolean; readonly valueBytes?: number }
  /** Reads of RANGE_KEY, linearizable or serializable. */
  | { readonly kind: 'range'; readonly serializable: boolean }
  /** Transactions with no compare putting `txnOps` keys (random among `keySpace`). */
  | { readonly kind: 'txn-put'; readonly keySpace: number; readonly txnOps: number }
  /**
   * `streams × watchersPerStream` watchers over `keySpace` keys (watcher i on key i mod keySpace),
   * fed by puts to those keys at `putRate` per second in total from the plan's clients.
   * Measured: events delivered, and each event's delivery latency from the put's send.
   */
  | {
      readonly kind: 'watch';
      readonly streams: number;
      readonly watchersPerStream: number;
      readonly keySpace: number;
      readonly putRate: number;
    };

export type LoadKind = LoadSpec['kind'];

export interface LoadPlan {
  readonly load: LoadSpec;
  /** Member endpoints (host:port); connection k goes to targets[k mod n]. */
  readonly targets: readonly string[];
  /** Closed-loop clients (watch: put clients), client c on connection c mod connections. */
  readonly clients: number;
  readonly connections: number;
  readonly valueSize: number;
  readonly warmupMs: number;
  readonly measureMs: number;
}

export interface LoadResult {
  /** Successful requests (watch: delivered events) per second inside the window. */
  readonly throughput: number;
  readonly ok: number;
  readonly errors: number;
  readonly firstError: string | null;
  /** Latencies in µs (watch: delivery latency), log buckets of load/histogram.ts. */
  readonly histogram: Histogram;
  /** Generator CPU over the window, in cores (1.0 = one core busy the whole window). */
  readonly generatorCores: number;
  /** Watch only: puts per second that fed the watchers; null for the other loads. */
  readonly putThroughput: number | null;
}

/** Called by the generator's driver when the measurement window opens and closes. */
export interface WindowObserver {
  windowStart(): void;
  windowEnd(): void;
}
