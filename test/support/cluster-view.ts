/**
 * A cluster as etcdctl reports it: `endpoint status`, `endpoint health` and `member list`
 * (all with `-w json`), parsed into typed records.
 *
 * etcdctl prints 64-bit ids and raft indexes as bare JSON numbers, which lose precision in
 * `JSON.parse`; every integer of 16 digits or more is therefore read as a string, and ids are
 * returned as lower-case hex (the form `member list` prints in its simple output).
 */
import assert from 'node:assert/strict';
import { etcdctl, type CtlResult } from './etcdctl.js';
import { eventually } from './eventually.js';
import type { Member } from './server-process.js';

/** One endpoint's `endpoint status` answer. */
export interface EndpointStatus {
  readonly endpoint: string;
  /** Hex id of the member that answered. */
  readonly memberId: string;
  /** Hex id of the leader it knows (`0` when none). */
  readonly leader: string;
  readonly raftTerm: bigint;
  readonly raftIndex: bigint;
  readonly raftAppliedIndex: bigint;
  readonly revision: bigint;
  readonly isLearner: boolean;
  /** Backend size (`dbSize`) and what is in use of it (`dbSizeInUse`), in bytes. */
  readonly dbSize: number;
  readonly dbSizeInUse: number;
}

/** One entry of `member list`. */
export interface MemberEntry {
  readonly id: string;
  readonly name: string;
  readonly peerURLs: readonly string[];
  readonly clientURLs: readonly string[];
  readonly isLearner: boolean;
}

/** One endpoint's `endpoint health` answer. */
export interface EndpointHealth {
  readonly endpoint: string;
  readonly health: boolean;
  readonly error?: string;
}

/** JSON.parse that keeps integers of ≥ 16 digits as strings (see the file header). */
export function parseCtlJson(text: string): unknown {
  return JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,}\]])/g, '$1"$2"'));
}

const hex = (v: unknown): string => BigInt(v as string | number).toString(16);
const big = (v: unknown): bigint => BigInt((v as string | number | undefined) ?? 0);

function describe(args: readonly string[], r: CtlResult): string {
  return `etcdctl ${args.join(' ')} → exit ${r.code ?? r.signal}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
}

interface RawStatus {
  Endpoint: string;
  Status: {
    header: { member_id: unknown; revision?: unknown };
    leader?: unknown;
    raftIndex?: unknown;
    raftTerm?: unknown;
    raftAppliedIndex?: unknown;
    isLearner?: boolean;
    dbSize?: unknown;
    dbSizeInUse?: unknown;
  };
}

/** Parses `endpoint status -w json` output. */
export function parseStatuses(stdout: string): EndpointStatus[] {
  if (stdout.trim() === '') return [];
  return (parseCtlJson(stdout) as RawStatus[]).map((s) => ({
    endpoint: s.Endpoint,
    memberId: hex(s.Status.header.member_id),
    leader: hex(s.Status.leader ?? 0),
    raftTerm: big(s.Status.raftTerm),
    raftIndex: big(s.Status.raftIndex),
    raftAppliedIndex: big(s.Status.raftAppliedIndex),
    revision: big(s.Status.header.revision),
    isLearner: s.Status.isLearner === true,
    dbSize: Number(big(s.Status.dbSize)),
    dbSizeInUse: Number(big(s.Status.dbSizeInUse)),
  }));
}

/**
 * `endpoint status -w json` over `endpoints` (plus `extra` flags such as `--cluster`).
 * Returns what could be parsed and the raw result (etcdctl exits 1 if any endpoint failed).
 */
export async function endpointStatus(
  endpoints: string | readonly string[],
  extra: readonly string[] = [],
): Promise<{ statuses: EndpointStatus[]; result: CtlResult }> {
  const args = ['endpoint', 'status', '-w', 'json', ...extra];
  const result = await etcdctl(endpoints, args);
  try {
    return { statuses: parseStatuses(result.stdout), result };
  } catch (e) {
    throw new Error(`unparsable output of ${describe(args, result)}`, { cause: e });
  }
}

/** `endpoint health -w json` over `endpoints` (plus `extra` flags). */
export async function endpointHealth(
  endpoints: string | readonly string[],
  extra: readonly string[] = [],
): Promise<{ health: EndpointHealth[]; result: CtlResult }> {
  const args = ['endpoint', 'health', '-w', 'json', ...extra];
  const result = await etcdctl(endpoints, args);
  const health = result.stdout.trim() === '' ? [] : (JSON.parse(result.stdout) as EndpointHealth[]);
  return { health, result };
}

interface RawMember {
  ID: unknown;
  name?: string;
  peerURLs?: string[];
  clientURLs?: string[];
  isLearner?: boolean;
}

/** `member list -w json` through `endpoints`; asserts exit 0. Members sorted by id. */
export async function memberList(endpoints: string | readonly string[]): Promise<MemberEntry[]> {
  const args = ['member', 'list', '-w', 'json'];
  const result = await etcdctl(endpoints, args);
  assert.equal(result.code, 0, describe(args, result));
  const raw = (parseCtlJson(result.stdout) as { members?: RawMember[] }).members ?? [];
  return raw
    .map((m) => ({
      id: hex(m.ID),
      name: m.name ?? '',
      peerURLs: [...(m.peerURLs ?? [])].sort(),
      clientURLs: [...(m.clientURLs ?? [])].sort(),
      isLearner: m.isLearner === true,
    }))
    .sort((a, b) => (BigInt(`0x${a.id}`) < BigInt(`0x${b.id}`) ? -1 : 1));
}

/**
 * The leader all `statuses` agree on, if exactly one of them is that leader and every status
 * names it; otherwise undefined.
 */
export function agreedLeader(statuses: readonly EndpointStatus[]): EndpointStatus | undefined {
  if (statuses.length === 0) return undefined;
  const lead = statuses[0].leader;
  if (lead === '0' || statuses.some((s) => s.leader !== lead)) return undefined;
  const leaders = statuses.filter((s) => s.memberId === lead);
  return leaders.length === 1 ? leaders[0] : undefined;
}

/** The members' roles once they agree on one leader among them. */
export interface Roles {
  readonly leader: Member;
  readonly followers: Member[];
  readonly statuses: EndpointStatus[];
}

/**
 * Waits (bounded, see eventually.ts) until every member in `members` answers `endpoint status`
 * and all name the same leader, which is one of them.
 */
export async function waitForLeader(members: readonly Member[], timeoutMs?: number): Promise<Roles> {
  let last = '';
  return eventually(
    `${members.map((m) => m.name).join(', ')} agree on a leader among them`,
    async () => {
      const { statuses, result } = await endpointStatus(members.map((m) => m.endpoint));
      last = `${result.stdout}${result.stderr}`;
      if (result.code !== 0 || statuses.length !== members.length) return undefined;
      const lead = agreedLeader(statuses);
      if (lead === undefined) return undefined;
      const leader = members.find((m) => m.endpoint === lead.endpoint);
      if (leader === undefined) return undefined;
      return { leader, followers: members.filter((m) => m !== leader), statuses };
    },
    { timeoutMs, describe: () => last },
  );
}
