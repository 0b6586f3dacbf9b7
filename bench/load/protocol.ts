/**
 * Messages between the bench driver (parent) and its load-generator child processes.
 *
 * Sequence: parent → `connect`; child opens its channels → `ready`; parent → `go` (same start time
 * for every child); child runs a closed loop, measures only the window
 * [startAt + warmupMs, startAt + warmupMs + measureMs) → `result`; parent → `exit`.
 * Any failure in the child → `failed` (the parent treats the run as failed).
 */
import type { Histogram } from './histogram.js';

export const LOAD_KINDS = ['put', 'range'] as const;
export type LoadKindName = (typeof LOAD_KINDS)[number];

/** Request shape shared by all kinds; each kind reads the fields it needs. */
export interface LoadParams {
  readonly valueSize: number;
  /** Puts pick keys from this many distinct keys. */
  readonly keySpace: number;
  /** Puts take the keys in turn (over all children) instead of uniformly at random. */
  readonly sequentialKeys: boolean;
  /** Range only: serializable (local) read instead of linearizable. */
  readonly serializable: boolean;
}

export interface WorkerSpec {
  readonly kind: LoadKindName;
  /**
   * host:port of every member's gRPC endpoint. Connection j of this child goes to
   * `targets[(firstConnection + j) % targets.length]`, so connections are dealt round-robin over
   * the endpoints across all children (as etcd's benchmark tool deals --conns over --endpoints).
   */
  readonly targets: readonly string[];
  /** Index of this child's first connection among all children's connections. */
  readonly firstConnection: number;
  /** Distinct HTTP/2 connections this child opens. */
  readonly connections: number;
  /** Closed-loop clients in this child, assigned round-robin to its connections. */
  readonly clients: number;
  /** Distinguishes children (seeds their key choice). */
  readonly workerIndex: number;
  /** Children in this run. */
  readonly workers: number;
  readonly params: LoadParams;
  readonly warmupMs: number;
  readonly measureMs: number;
}

export type ToWorker =
  | { readonly type: 'connect'; readonly spec: WorkerSpec }
  /** `startAt` is an epoch time in ms (performance.timeOrigin + performance.now()). */
  | { readonly type: 'go'; readonly startAt: number }
  | { readonly type: 'exit' };

export interface WorkerResult {
  /** Requests that completed successfully inside the window. */
  readonly ok: number;
  /** Requests that failed inside the window. */
  readonly errors: number;
  readonly firstError: string | null;
  /** Latencies (µs) of successful requests completed inside the window. */
  readonly histogram: Histogram;
  /** user + system CPU of this child inside the window, µs. */
  readonly cpuMicros: number;
  /** Actual window length, ms. */
  readonly windowMs: number;
}

export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'result'; readonly result: WorkerResult }
  | { readonly type: 'failed'; readonly message: string };
