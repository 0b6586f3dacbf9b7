/**
 * Turns the measurements of a bench run into the markdown tables printed to stdout and the
 * JSON document written to .bench/. Pure: no I/O.
 *
 * Aggregation: for each (row, server) the median over rounds of throughput, p50 and p99, so one
 * noisy round does not decide the table; every round is still listed in the per-round table.
 */
import type { Row, RowId } from './rows.js';
import type { ServerName } from './servers.js';

export interface Measurement {
  readonly row: RowId;
  readonly server: ServerName;
  readonly round: number;
  readonly throughput: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly ok: number;
  readonly errors: number;
  readonly firstError: string | null;
  /** CPU of the load generator over the window, in cores. */
  readonly generatorCores: number;
  /** CPU of the server process tree over the window, in cores. */
  readonly serverCores: number;
  /** CPU used by everything else on the machine over the window (busy − server − generator), in cores. */
  readonly otherCores: number;
  /** Server RSS / VmHWM right after this run, bytes. */
  readonly rssBytes: number;
  readonly hwmBytes: number;
  /** Why the run produced no numbers (server exited, generator failed), or null. */
  readonly failure: string | null;
}

export interface RunInfo {
  readonly startedAt: string;
  readonly servers: readonly ServerName[];
  readonly versions: Readonly<Partial<Record<ServerName, string>>>;
  readonly rows: readonly Row[];
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly valueSize: number;
  readonly keySpace: number;
  readonly generatorProcs: number;
  readonly cores: number;
  /** 1-minute load average before the first and after the last run: a busy machine skews everything. */
  readonly loadAverage: { readonly before: number; readonly after: number };
}

export interface BenchRun {
  readonly info: RunInfo;
  readonly measurements: readonly Measurement[];
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const fmtOps = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–');
const fmtMs = (x: number): string => (Number.isFinite(x) ? (x < 10 ? x.toFixed(2) : x.toFixed(1)) : '–');
const fmtCores = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '–');
const fmtMiB = (b: number): string => (Number.isFinite(b) ? (b / 1024 / 1024).toFixed(0) : '–');

function of(run: BenchRun, row: RowId, server: ServerName): Measurement[] {
  return run.measurements.filter((m) => m.row === row && m.server === server);
}

/** Median over the rounds that produced numbers. */
function med(ms: readonly Measurement[], f: (m: Measurement) => number): number {
  return median(ms.filter((m) => m.failure === null).map(f));
}

function table(header: readonly string[], body: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map((_, i) => (i === 0 ? '---' : '---:'))), ...body.map(line)].join('\n');
}

export function renderMarkdown(run: BenchRun): string {
  const { info } = run;
  const servers = info.servers;
  const both = servers.includes('etcd') && servers.includes('kvstore');
  const out: string[] = [];
  const versions = servers.map((s) => `${s} ${info.versions[s] ?? '?'}`).join(', ');
  out.push(
    `### ${versions} — ${info.rounds} round(s) × ${info.seconds} s (+${info.warmupSeconds} s warm-up), ` +
      `${info.valueSize} B values, ${info.cores} cores; medians over rounds`,
    '',
  );
  const { before, after } = info.loadAverage;
  if (Math.max(before, after) > info.cores / 2) {
    out.push(
      `> Machine was busy: load average ${before.toFixed(1)} before, ${after.toFixed(1)} after ` +
        `(${info.cores} cores). Trust the ratio column more than absolute numbers.`,
      '',
    );
  }

  const header = ['load'];
  for (const s of servers) header.push(`${s} ops/s`, `${s} p50 ms`, `${s} p99 ms`);
  if (both) header.push('kvstore/etcd');
  const body = info.rows.map((row) => {
    const cells = [row.title];
    const tput: Partial<Record<ServerName, number>> = {};
    for (const s of servers) {
      const ms = of(run, row.id, s);
      tput[s] = med(ms, (m) => m.throughput);
      cells.push(fmtOps(tput[s] ?? NaN), fmtMs(med(ms, (m) => m.p50Ms)), fmtMs(med(ms, (m) => m.p99Ms)));
    }
    if (both) {
      const ratio = (tput.kvstore ?? NaN) / (tput.etcd ?? NaN);
      cells.push(Number.isFinite(ratio) ? ratio.toFixed(2) : '–');
    }
    return cells;
  });
  out.push(table(header, body), '');

  out.push(
    `CPU over the measurement window, in cores (machine: ${info.cores}), and server CPU per request. ` +
      `When server + generator + other is close to ${info.cores}, the row measured the shared machine, ` +
      `not the server alone; CPU per request is then the steadier comparison:`,
    '',
  );
  const cpuHeader = ['load'];
  for (const s of servers) cpuHeader.push(`${s} server`, `${s} µs CPU/op`, `generator vs ${s}`, 'other procs');
  const cpuBody = info.rows.map((row) => {
    const cells = [row.title];
    for (const s of servers) {
      const ms = of(run, row.id, s);
      const gen = med(ms, (m) => m.generatorCores);
      cells.push(
        fmtCores(med(ms, (m) => m.serverCores)),
        fmtOps(med(ms, (m) => (m.serverCores * 1e6) / m.throughput)),
        `${fmtCores(gen)} (${Math.round((gen / info.cores) * 100)} % of machine)`,
        fmtCores(med(ms, (m) => m.otherCores)),
      );
    }
    return cells;
  });
  out.push(table(cpuHeader, cpuBody), '');

  out.push('Server memory after the last run (process tree):', '');
  const memBody = servers.map((s) => {
    const mine = run.measurements.filter((m) => m.server === s && m.failure === null);
    const last = mine[mine.length - 1];
    return [s, last ? fmtMiB(last.rssBytes) : '–', last ? fmtMiB(Math.max(...mine.map((m) => m.hwmBytes))) : '–'];
  });
  out.push(table(['server', 'VmRSS MiB', 'VmHWM MiB'], memBody), '');

  out.push('Throughput per round (ops/s), in the order run:', '');
  const roundHeader = ['load'];
  for (let r = 1; r <= info.rounds; r++) for (const s of servers) roundHeader.push(`${s} #${r}`);
  const roundBody = info.rows.map((row) => {
    const cells = [row.title];
    for (let r = 1; r <= info.rounds; r++) {
      for (const s of servers) cells.push(fmtOps(of(run, row.id, s).find((m) => m.round === r)?.throughput ?? NaN));
    }
    return cells;
  });
  out.push(table(roundHeader, roundBody));

  const failing = run.measurements.filter((m) => m.errors > 0 || m.failure !== null);
  if (failing.length > 0) {
    out.push('', 'Errors:');
    for (const m of failing) {
      const what = m.failure !== null ? `run failed: ${m.failure}` : `${m.errors} requests failed (first: ${m.firstError})`;
      out.push(`- ${m.server} ${m.row} round ${m.round}: ${what}`);
    }
  }
  return out.join('\n');
}

/** JSON-safe form of the run (numbers rounded sensibly, NaN → null by JSON.stringify). */
export function toJson(run: BenchRun): string {
  return JSON.stringify(run, null, 2);
}
