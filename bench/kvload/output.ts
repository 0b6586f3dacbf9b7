/**
 * Reading kvload's output: one JSON object per stdout line (bench/go/kvload/output.go).
 * `parseKvloadLine` validates a line into a typed message and `toLoadResult` turns the result
 * into the bench's LoadResult. Pure; malformed input throws with the offending text.
 */
import type { LoadResult } from '../load-spec.js';
import { BUCKETS, newHistogram, type Histogram } from '../load/histogram.js';

export interface KvloadResult {
  readonly kind: string;
  /** Successful requests (watch: delivered events) inside the window. */
  readonly count: number;
  readonly errors: number;
  readonly firstError: string | null;
  readonly durationSeconds: number;
  readonly throughput: number;
  readonly latencyMicros: { readonly mean: number; readonly p50: number; readonly p90: number; readonly p99: number; readonly p999: number };
  readonly histogram: Histogram;
  readonly cpuMicros: number;
  /** Watch only. */
  readonly puts: number | null;
  readonly putErrors: number | null;
}

export type KvloadLine =
  | { readonly event: 'ready' | 'window-start' | 'window-end' }
  | { readonly event: 'result'; readonly result: KvloadResult }
  | { readonly event: 'error'; readonly message: string };

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(o: Json, field: string, line: string): number {
  const v = o[field];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new Error(`kvload output: ${field} is not a number ≥ 0 in ${line}`);
  return v;
}

function optNum(o: Json, field: string, line: string): number | null {
  return o[field] === undefined ? null : num(o, field, line);
}

function histogramOf(v: unknown, line: string): Histogram {
  if (!Array.isArray(v)) throw new Error(`kvload output: histogram is not a list in ${line}`);
  const h = newHistogram();
  for (const pair of v) {
    const ok = Array.isArray(pair) && pair.length === 2 && pair.every((x) => Number.isInteger(x) && x >= 0) && pair[0] < BUCKETS;
    if (!ok) throw new Error(`kvload output: bad histogram bucket ${JSON.stringify(pair)}`);
    h[pair[0] as number] += pair[1] as number;
  }
  return h;
}

function resultOf(o: Json, line: string): KvloadResult {
  const lat = o.latencyMicros;
  if (!isObject(lat)) throw new Error(`kvload output: latencyMicros missing in ${line}`);
  const firstError = o.firstError;
  if (firstError !== undefined && typeof firstError !== 'string') throw new Error(`kvload output: firstError is not a string in ${line}`);
  return {
    kind: typeof o.kind === 'string' ? o.kind : '?',
    count: num(o, 'count', line),
    errors: num(o, 'errors', line),
    firstError: firstError === undefined || firstError === '' ? null : firstError,
    durationSeconds: num(o, 'durationSeconds', line),
    throughput: num(o, 'throughput', line),
    latencyMicros: {
      mean: num(lat, 'mean', line),
      p50: num(lat, 'p50', line),
      p90: num(lat, 'p90', line),
      p99: num(lat, 'p99', line),
      p999: num(lat, 'p999', line),
    },
    histogram: histogramOf(o.histogram, line),
    cpuMicros: num(o, 'cpuMicros', line),
    puts: optNum(o, 'puts', line),
    putErrors: optNum(o, 'putErrors', line),
  };
}

export function parseKvloadLine(line: string): KvloadLine {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch (err) {
    throw new Error(`kvload output is not JSON: ${line}`, { cause: err });
  }
  if (!isObject(o)) throw new Error(`kvload output is not an object: ${line}`);
  switch (o.event) {
    case 'ready':
    case 'window-start':
    case 'window-end':
      return { event: o.event };
    case 'result':
      return { event: 'result', result: resultOf(o, line) };
    case 'error':
      return { event: 'error', message: typeof o.message === 'string' ? o.message : line };
    default:
      throw new Error(`kvload output: unknown event in ${line}`);
  }
}

/** The bench's view of a kvload result; a zero-length window yields NaN rates, never a throw. */
export function toLoadResult(r: KvloadResult): LoadResult {
  const seconds = r.durationSeconds;
  return {
    throughput: seconds > 0 ? r.count / seconds : NaN,
    ok: r.count,
    errors: r.errors + (r.putErrors ?? 0),
    firstError: r.firstError,
    histogram: r.histogram,
    generatorCores: seconds > 0 ? r.cpuMicros / 1e6 / seconds : NaN,
    putThroughput: r.puts === null ? null : seconds > 0 ? r.puts / seconds : NaN,
  };
}
