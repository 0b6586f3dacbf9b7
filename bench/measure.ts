/**
 * One measured run: one row's load against one deployment, with the server side sampled around
 * the window (CPU per member, memory per member after the load, who led before and after).
 *
 * A run that cannot produce numbers (a member gone, the generator failing or stalling) becomes a
 * Measurement with `failure` set; it never throws.
 */
import { leaderView, type Deployment } from './deployment.js';
import { connectionsPerPosition, orderMembers, type EndpointOrder } from './endpoint-order.js';
import { otherCores } from './cpu-share.js';
import type { Generator } from './generator.js';
import { quantile } from './load/histogram.js';
import { cpuSecondsOf, machineBusySeconds, memoryOf } from './proc-stats.js';
import type { Measurement, MemberSample } from './run-record.js';
import type { Row } from './rows.js';

export interface MeasureOptions {
  readonly generator: Generator;
  readonly valueSize: number;
  readonly warmupSeconds: number;
  readonly seconds: number;
  readonly endpointOrder: EndpointOrder;
  /** Progress lines (stderr). */
  readonly log: (line: string) => void;
}

const STATUS_TIMEOUT_MS = 5000;

export async function measureOrFail(d: Deployment, row: Row, round: number, opts: MeasureOptions): Promise<Measurement> {
  const failed = (failure: string, partial: Partial<Measurement> = {}): Measurement => {
    opts.log(`${row.id} round ${round} ${d.server}: FAILED: ${failure}`);
    return {
      row: row.id, server: d.server, round, throughput: NaN, putThroughput: null, p50Ms: NaN, p99Ms: NaN, p999Ms: NaN, ok: 0, errors: 0,
      firstError: null, generatorCores: NaN, serverCores: NaN, otherCores: NaN, rssBytes: NaN, hwmBytes: NaN,
      members: [], leaderBefore: null, leaderAfter: null, ...partial, failure,
    };
  };
  const gone = d.exitedMembers();
  if (gone.length > 0) return failed(`before the run: ${gone.join('; ')}`);
  try {
    const m = await measure(d, row, round, opts);
    const goneAfter = d.exitedMembers();
    if (goneAfter.length > 0) return failed(`during the run: ${goneAfter.join('; ')}`, m);
    logRun(m, d.members.length > 1, opts.log);
    return m;
  } catch (err) {
    return failed(err instanceof Error ? err.message : String(err));
  }
}

async function measure(d: Deployment, row: Row, round: number, opts: MeasureOptions): Promise<Measurement> {
  const before = await leaderView(d, STATUS_TIMEOUT_MS);
  const order = orderMembers(d.members.length, before.leader, opts.endpointOrder);
  const perPosition = connectionsPerPosition(row.connections, order.length);
  const connectionsOf = new Map(order.map((member, pos) => [member, perPosition[pos]]));
  const pids = d.members.map((m) => m.process.pid);
  let cpu0: number[] = [];
  let t0 = 0;
  let busy0 = 0;
  let memberCores: number[] = pids.map(() => NaN);
  let machineCores = NaN;
  const result = await opts.generator.run(
    {
      load: row.load,
      targets: order.map((i) => d.members[i].target),
      clients: row.clients,
      connections: row.connections,
      valueSize: opts.valueSize,
      warmupMs: opts.warmupSeconds * 1000,
      measureMs: opts.seconds * 1000,
    },
    {
      windowStart() {
        cpu0 = pids.map(cpuSecondsOf);
        busy0 = machineBusySeconds();
        t0 = performance.now();
      },
      windowEnd() {
        const wall = (performance.now() - t0) / 1000;
        memberCores = pids.map((pid, i) => (cpuSecondsOf(pid) - cpu0[i]) / wall);
        machineCores = (machineBusySeconds() - busy0) / wall;
      },
    },
  );
  // A member that exited has no memory; NaN (not 0) keeps it out of sums and shows as '–'.
  const memory = d.members.map((m) => (m.process.exited() ? { rssBytes: NaN, hwmBytes: NaN } : memoryOf(m.process.pid)));
  const after = await leaderView(d, STATUS_TIMEOUT_MS);
  const roleOf = (i: number): MemberSample['role'] =>
    before.leader === null ? 'unknown' : before.leader === i ? 'leader' : 'follower';
  const members: MemberSample[] = d.members.map((m, i) => ({
    name: m.name,
    role: roleOf(i),
    connections: connectionsOf.get(i) ?? 0,
    cores: memberCores[i],
    rssBytes: memory[i].rssBytes,
    hwmBytes: memory[i].hwmBytes,
  }));
  const serverCores = memberCores.reduce((a, b) => a + b, 0);
  const nameOf = (i: number | null): string | null => (i === null ? null : d.members[i].name);
  return {
    row: row.id,
    server: d.server,
    round,
    throughput: result.throughput,
    p50Ms: quantile(result.histogram, 0.5) / 1000,
    p99Ms: quantile(result.histogram, 0.99) / 1000,
    p999Ms: quantile(result.histogram, 0.999) / 1000,
    ok: result.ok,
    errors: result.errors,
    firstError: result.firstError,
    putThroughput: result.putThroughput,
    generatorCores: result.generatorCores,
    serverCores,
    otherCores: otherCores(machineCores, serverCores, result.generatorCores),
    rssBytes: memory.reduce((a, b) => a + (Number.isFinite(b.rssBytes) ? b.rssBytes : 0), 0),
    hwmBytes: memory.reduce((a, b) => a + (Number.isFinite(b.hwmBytes) ? b.hwmBytes : 0), 0),
    members,
    leaderBefore: nameOf(before.leader),
    leaderAfter: nameOf(after.leader),
    failure: null,
  };
}

function logRun(m: Measurement, cluster: boolean, log: (line: string) => void): void {
  const perMember = cluster
    ? ` [${m.members.map((s) => `${s.name} ${s.role} ${s.connections} conns ${s.cores.toFixed(2)} cores`).join(', ')}]` +
      (m.leaderBefore !== m.leaderAfter ? `, LEADER CHANGED ${m.leaderBefore ?? 'none'} → ${m.leaderAfter ?? 'none'}` : '')
    : '';
  log(
    `${m.row} round ${m.round} ${m.server}: ${Math.round(m.throughput)} ${m.putThroughput === null ? 'ops' : 'events'}/s` +
      (m.putThroughput === null ? '' : ` (${Math.round(m.putThroughput)} puts/s)`) +
      `, p50 ${m.p50Ms.toFixed(2)} ms, ` +
      `p99 ${m.p99Ms.toFixed(2)} ms, server ${m.serverCores.toFixed(2)} cores, generator ${m.generatorCores.toFixed(2)} cores, ` +
      `other ${m.otherCores.toFixed(2)} cores` +
      (m.errors > 0 ? `, ${m.errors} errors (${m.firstError})` : '') +
      perMember,
  );
}
