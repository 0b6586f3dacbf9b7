/**
 * Renders a bench run as the markdown printed to stdout. Pure: no I/O.
 *
 * Aggregation: for each (row, server) the median over the rounds that produced numbers, of
 * throughput, p50, p99 and CPU, so one noisy round does not decide the table; every round is
 * still listed in the per-round table. Ratios are kvstore / etcd of those medians.
 */
import type { BenchRun, Measurement, MemberSample } from './run-record.js';
import { cpuShare, formatMicrosPerOp, formatShare, type CpuShare } from './cpu-share.js';
import type { Goal, RowId } from './rows.js';
import type { ServerName } from './servers.js';

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
const fmtRatio = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '–');

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

/** '✓', or what missed the goal; '–' when a ratio is missing. */
function goalCell(goal: Goal, tputRatio: number, p99Ratio: number): string {
  if (!Number.isFinite(tputRatio) || !Number.isFinite(p99Ratio)) return '–';
  const misses = [
    ...(tputRatio < goal.minThroughputRatio ? ['throughput'] : []),
    ...(p99Ratio > goal.maxP99Ratio ? ['p99'] : []),
  ];
  return misses.length === 0 ? '✓' : `✗ ${misses.join(', ')}`;
}

function header(run: BenchRun): string[] {
  const { info } = run;
  const versions = info.servers.map((s) => `${s} ${info.versions[s] ?? '?'}`).join(', ');
  const topology = info.members === 1 ? 'single member each' : `${info.members} members each`;
  const out = [
    `### ${versions} — ${topology}, ${info.rounds} round(s) × ${info.seconds} s (+${info.warmupSeconds} s warm-up; ${info.serverWarmupSeconds} s server warm-up first), ` +
      `${info.valueSize} B values, ${info.cores} cores; medians over rounds`,
    '',
  ];
  out.push(
    `Load generator: ${info.generator === 'go' ? `kvload (Go clientv3, bench/go/kvload; GOMAXPROCS ${info.generatorProcs || 'per core'})` : `grpc-js (Node, ${info.generatorProcs} processes)`}; ` +
      `members on ${info.hostPrefix}.1.x (etcd) and ${info.hostPrefix}.2.x (kvstore).`,
    '',
  );
  if (info.rows.some((r) => r.unit === 'events')) {
    out.push(
      'Watch rows: ops/s counts delivered events, p50/p99 are delivery latencies (from the put being sent to the event arriving); puts/s in brackets.',
      '',
    );
  }
  const { before, after } = info.loadAverage;
  out.push(`Load average (1 min): ${before.toFixed(2)} before, ${after.toFixed(2)} after (${info.cores} cores).`, '');
  if (Math.max(before, after) > info.cores / 2) {
    out.push('> Machine was busy. Trust the ratio columns more than absolute numbers.', '');
  }
  if (info.members > 1) {
    out.push(
      `Connections are dealt round-robin over the members' endpoints, ${info.endpointOrder === 'followers-first' ? 'followers first, leader last' : 'leader first'} ` +
        `(the 1-client row talks to a ${info.endpointOrder === 'followers-first' ? 'follower, which forwards to the leader' : 'leader'}).` +
        (info.goal !== null
          ? ` Goal: kvstore/etcd throughput ≥ ${info.goal.minThroughputRatio}, p99 ≤ ${info.goal.maxP99Ratio}× etcd's.`
          : ''),
      '',
    );
  }
  return out;
}

function mainTable(run: BenchRun): string {
  const { info } = run;
  const both = info.servers.includes('etcd') && info.servers.includes('kvstore');
  const head = ['load'];
  for (const s of info.servers) head.push(`${s} ops/s`, `${s} p50 ms`, `${s} p99 ms`);
  if (both) head.push('kvstore/etcd', 'p99 kvstore/etcd');
  if (both && info.goal !== null) head.push('goal');
  const body = info.rows.map((row) => {
    const cells = [row.title];
    const tput: Partial<Record<ServerName, number>> = {};
    const p99: Partial<Record<ServerName, number>> = {};
    for (const s of info.servers) {
      const ms = of(run, row.id, s);
      tput[s] = med(ms, (m) => m.throughput);
      p99[s] = med(ms, (m) => m.p99Ms);
      const puts = row.unit === 'events' ? ` (${fmtOps(med(ms, (m) => m.putThroughput ?? NaN))} puts/s)` : '';
      cells.push(fmtOps(tput[s] ?? NaN) + puts, fmtMs(med(ms, (m) => m.p50Ms)), fmtMs(p99[s] ?? NaN));
    }
    if (both) {
      const tputRatio = (tput.kvstore ?? NaN) / (tput.etcd ?? NaN);
      const p99Ratio = (p99.kvstore ?? NaN) / (p99.etcd ?? NaN);
      cells.push(fmtRatio(tputRatio), fmtRatio(p99Ratio));
      if (info.goal !== null) cells.push(goalCell(info.goal, tputRatio, p99Ratio));
    }
    return cells;
  });
  return table(head, body);
}

/**
 * The ratios in one line per measure, one column per row, headed "<N> member(s): <row>" (the
 * shape the speed notes use, so blocks from a single-member and a cluster run sit side by side).
 */
function summaryTable(run: BenchRun): string {
  const { info } = run;
  const prefix = `${info.members} member${info.members === 1 ? '' : 's'}`;
  const head = ['kvstore / etcd', ...info.rows.map((r) => `${prefix}: ${r.title}`)];
  const ratio = (f: (m: Measurement) => number) => (row: RowId): string =>
    fmtRatio(med(of(run, row, 'kvstore'), f) / med(of(run, row, 'etcd'), f));
  const genShare = (row: RowId): string =>
    info.servers.map((s) => `${Math.round(cpuShare(med(of(run, row, s), (m) => m.generatorCores), 0, info.cores).percentOfMachine)} %`).join(' / ');
  const lines: [string, (row: RowId) => string][] = [
    ['throughput', ratio((m) => m.throughput)],
    ['p99', ratio((m) => m.p99Ms)],
    ['server CPU µs per op', ratio((m) => (m.serverCores * 1e6) / m.throughput)],
    ['generator, % of machine (etcd / kvstore)', genShare],
  ];
  return ['Summary:', '', table(head, lines.map(([name, f]) => [name, ...info.rows.map((r) => f(r.id))]))].join('\n');
}

const leaderOf = (m: Measurement): MemberSample | undefined => m.members.find((s) => s.role === 'leader');

/** Median CPU share over the rounds: cores, and µs per op taken per round against that round's throughput. */
function shareOf(ms: readonly Measurement[], cores: (m: Measurement) => number, machineCores: number): CpuShare {
  const c = med(ms, cores);
  const perOp = med(ms, (m) => cpuShare(cores(m), m.throughput, machineCores).microsPerOp);
  return { cores: c, percentOfMachine: cpuShare(c, 0, machineCores).percentOfMachine, microsPerOp: perOp };
}

function cpuTable(run: BenchRun): string {
  const { info } = run;
  const cluster = info.members > 1;
  const head = ['load'];
  for (const s of info.servers) {
    head.push(cluster ? `${s} members (sum)` : `${s} server`);
    if (cluster) head.push(`${s} leader`);
    head.push(`${s} µs CPU/op`, `generator vs ${s}`, 'generator µs/op', 'other procs');
  }
  const body = info.rows.map((row) => {
    const cells = [row.title];
    for (const s of info.servers) {
      const ms = of(run, row.id, s);
      const server = shareOf(ms, (m) => m.serverCores, info.cores);
      const generator = shareOf(ms, (m) => m.generatorCores, info.cores);
      cells.push(formatShare(server));
      if (cluster) cells.push(formatShare(shareOf(ms, (m) => leaderOf(m)?.cores ?? NaN, info.cores)));
      cells.push(formatMicrosPerOp(server), formatShare(generator), formatMicrosPerOp(generator), fmtCores(med(ms, (m) => m.otherCores)));
    }
    return cells;
  });
  const intro =
    `CPU over the measurement window, in cores and % of the machine (${info.cores} cores), and CPU µs per request ` +
    `(watch rows: per delivered event), for the server${cluster ? ' (all members; "leader" is the leader member alone)' : ''} ` +
    `and for the ${info.generator} load generator driving it. When server + generator + other is close to ${info.cores}, ` +
    `the row measured the shared machine, not the server alone; CPU per request is then the steadier comparison:`;
  return [intro, '', table(head, body)].join('\n');
}

/** Cluster only: each member's share, by member position, with its role in the last run (L / F). */
function memberCpuTable(run: BenchRun): string {
  const { info } = run;
  const head = ['load'];
  for (const s of info.servers) for (let i = 1; i <= info.members; i++) head.push(`${s}-${i}`);
  const body = info.rows.map((row) => {
    const cells = [row.title];
    for (const s of info.servers) {
      const ms = of(run, row.id, s).filter((m) => m.members.length === info.members);
      for (let i = 0; i < info.members; i++) {
        const share = shareOf(ms, (m) => m.members[i].cores, info.cores);
        const role = ms.length > 0 ? ms[ms.length - 1].members[i].role : 'unknown';
        const tag = role === 'leader' ? 'L' : role === 'follower' ? 'F' : '?';
        cells.push(Number.isFinite(share.cores) ? `${tag} ${formatShare(share)}, ${formatMicrosPerOp(share)} µs/op` : '–');
      }
    }
    return cells;
  });
  return ['CPU per member (L leader, F follower, as of the last round; cores (% of machine), CPU µs per request):', '', table(head, body)].join('\n');
}

function memoryTable(run: BenchRun): string {
  const { info } = run;
  if (info.members === 1) {
    const body = info.servers.map((s) => {
      const mine = run.measurements.filter((m) => m.server === s && m.failure === null);
      const last = mine[mine.length - 1];
      return [s, last ? fmtMiB(last.rssBytes) : '–', last ? fmtMiB(Math.max(...mine.map((m) => m.hwmBytes))) : '–'];
    });
    return ['Server memory after the last run (process tree):', '', table(['server', 'VmRSS MiB', 'VmHWM MiB'], body)].join('\n');
  }
  const body: string[][] = [];
  for (const s of info.servers) {
    const mine = run.measurements.filter((m) => m.server === s && m.members.length > 0);
    const last = mine[mine.length - 1];
    if (last === undefined) {
      body.push([s, '–', '–', '–', '–']);
      continue;
    }
    last.members.forEach((member, i) => {
      const peak = Math.max(...mine.map((m) => m.members[i]?.hwmBytes).filter((b): b is number => Number.isFinite(b)));
      body.push([s, member.name, member.role, fmtMiB(member.rssBytes), fmtMiB(peak)]);
    });
  }
  return [
    'Memory per member after the last run (VmRSS now, VmHWM peak; role as of that run):',
    '',
    table(['server', 'member', 'role', 'VmRSS MiB', 'VmHWM MiB'], body),
  ].join('\n');
}

function roundsTable(run: BenchRun): string {
  const { info } = run;
  const head = ['load'];
  for (let r = 1; r <= info.rounds; r++) for (const s of info.servers) head.push(`${s} #${r}`);
  const body = info.rows.map((row) => {
    const cells = [row.title];
    for (let r = 1; r <= info.rounds; r++) {
      for (const s of info.servers) cells.push(fmtOps(of(run, row.id, s).find((m) => m.round === r)?.throughput ?? NaN));
    }
    return cells;
  });
  return ['Throughput per round (ops/s), in the order run:', '', table(head, body)].join('\n');
}

/** One line per failed run, run with failed requests, and run during which the leader changed. */
function problems(run: BenchRun): string[] {
  const out: string[] = [];
  for (const m of run.measurements) {
    const what = `- ${m.server} ${m.row} round ${m.round}:`;
    if (m.failure !== null) out.push(`${what} run failed: ${m.failure}`);
    if (m.errors > 0) out.push(`${what} ${m.errors} requests failed (first: ${m.firstError})`);
    if (run.info.members > 1 && m.members.length > 0 && m.leaderBefore !== m.leaderAfter) {
      out.push(`${what} leader changed or unknown: ${m.leaderBefore ?? 'none'} before, ${m.leaderAfter ?? 'none'} after`);
    }
  }
  return out;
}

export function renderMarkdown(run: BenchRun): string {
  const both = run.info.servers.includes('etcd') && run.info.servers.includes('kvstore');
  const out = [...header(run), mainTable(run), '', ...(both ? [summaryTable(run), ''] : []), cpuTable(run), ''];
  if (run.info.members > 1) out.push(memberCpuTable(run), '');
  out.push(memoryTable(run), '', roundsTable(run));
  const issues = problems(run);
  if (issues.length > 0) out.push('', 'Errors:', ...issues);
  return out.join('\n');
}
