/**
 * A deployment of one server under test: N members (N = 1 for the single-member mode) started
 * together as a new cluster, each on its own loopback address with a fresh temporary data dir.
 *
 * Contract of startDeployment: resolves only once every member serves a linearizable Range and
 * all members name the same leader; on failure every member is stopped and the error carries the
 * tail of each member's log. stop() stops all members and removes the data dirs; the logs stay.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { memberStatus, rangeCount, type MemberStatus } from './member-probe.js';
import { memberArgs, type MemberAddress } from './member-flags.js';
import { freePorts, logTail, spawnMember, type MemberProcess } from './member-process.js';
import { logFileName, memberHosts, memberNames, type ServerConfig, type ServerName } from './servers.js';

export interface RunningMember {
  readonly name: string;
  /** host:port of the member's gRPC client endpoint. */
  readonly target: string;
  readonly process: MemberProcess;
}

export interface Deployment {
  readonly server: ServerName;
  readonly members: readonly RunningMember[];
  /** One line per member that has exited: name, how, log file. Empty while all run. */
  exitedMembers(): string[];
  stop(): Promise<void>;
}

/** Who leads, as seen by the members at one moment. */
export interface LeaderView {
  /** Index into `members` of the agreed leader (see leaderView), or null (none, disagreement, no majority). */
  readonly leader: number | null;
  /** Per member: its status, or the error text of the Status call. */
  readonly statuses: readonly (MemberStatus | string)[];
}

const READY_TIMEOUT_MS = 30_000;

export async function startDeployment(cfg: ServerConfig, members: number): Promise<Deployment> {
  const hosts = memberHosts(cfg.name, members, cfg.hostPrefix);
  const names = memberNames(cfg.name, members);
  const addresses: MemberAddress[] = [];
  for (let i = 0; i < members; i++) {
    const [clientPort, peerPort] = await freePorts(hosts[i], 2);
    addresses.push({ name: names[i], host: hosts[i], clientPort, peerPort });
  }
  const dataRoot = mkdtempSync(join(tmpdir(), `bench-${cfg.name}-`));
  const token = `bench-${cfg.name}-${process.pid}`;
  const running: RunningMember[] = [];
  const deployment: Deployment = {
    server: cfg.name,
    members: running,
    exitedMembers: () =>
      running.filter((m) => m.process.exited()).map((m) => `${m.name} exited (${m.process.exitReason()}; log ${m.process.logFile})`),
    stop: async () => {
      await Promise.all(running.map((m) => m.process.stop()));
      rmSync(dataRoot, { recursive: true, force: true });
    },
  };
  try {
    for (const a of addresses) {
      const dataDir = join(dataRoot, a.name);
      const logFile = join(cfg.logDir, logFileName(cfg, a.name));
      const proc = await spawnMember(cfg.command, [...memberArgs(a, addresses, dataDir, token), ...cfg.extraArgs], logFile, cfg.extraEnv);
      running.push({ name: a.name, target: `${a.host}:${a.clientPort}`, process: proc });
    }
    await Promise.all(running.map((m) => waitServing(m, READY_TIMEOUT_MS)));
    await waitLeader(deployment, READY_TIMEOUT_MS);
    return deployment;
  } catch (err) {
    const tails = running.map((m) => `--- ${m.name} (${m.process.logFile}):\n${logTail(m.process.logFile)}`).join('\n');
    await deployment.stop();
    throw new Error(`${cfg.name} did not become ready: ${String(err)}\n${tails}`, { cause: err });
  }
}

/**
 * Asks every member for its Status (in parallel, each bounded by `timeoutMs`). The leader is the
 * one named by every member that answered, provided a majority answered and it is one of them.
 */
export async function leaderView(d: Deployment, timeoutMs: number): Promise<LeaderView> {
  const statuses = await Promise.all(
    d.members.map((m) => memberStatus(m.target, timeoutMs).catch((err: unknown) => (err instanceof Error ? err.message : String(err)))),
  );
  const ok = statuses.filter((s): s is MemberStatus => typeof s !== 'string');
  const majority = ok.length > statuses.length / 2;
  const leaderId = majority ? ok[0].leader : 0n;
  const agreed = leaderId !== 0n && ok.every((s) => s.leader === leaderId);
  const index = agreed ? statuses.findIndex((s) => typeof s !== 'string' && s.memberId === leaderId) : -1;
  return { leader: index >= 0 ? index : null, statuses };
}

function describe(view: LeaderView, d: Deployment): string {
  return view.statuses
    .map((s, i) => `${d.members[i].name}: ${typeof s === 'string' ? s : `leader ${s.leader.toString(16)} term ${s.raftTerm}`}`)
    .join('; ');
}

async function waitLeader(d: Deployment, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await leaderView(d, 1000);
    if (view.leader !== null) return;
    if (Date.now() > deadline) throw new Error(`no agreed leader within ${timeoutMs} ms: ${describe(view, d)}`);
    await sleep(200);
  }
}

/** Polls a linearizable Range until it succeeds (the member has a leader and serves). */
async function waitServing(m: RunningMember, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < deadline) {
    if (m.process.exited()) throw new Error(`${m.name} exited (${m.process.exitReason()})`);
    try {
      await rangeCount(m.target, Buffer.from('bench/ready'), false, 1000);
      return;
    } catch (err) {
      last = err;
      await sleep(200);
    }
  }
  throw new Error(`${m.name} not serving within ${timeoutMs} ms`, { cause: last });
}
