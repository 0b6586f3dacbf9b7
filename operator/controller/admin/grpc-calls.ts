/**
 * The member admin calls that go over gRPC through the typed client: Maintenance.Status,
 * Alarm list, a linearizable Range, Auth.AuthStatus, Cluster.MemberList / MemberAdd (learner)
 * / MemberPromote / MemberRemove.
 *
 * Contract: ids are 16 hex digits in and out; every call is bounded by the pool's command
 * timeout (and the caller's signal); client errors become `PortResult` failures with the
 * client's message and the URL.
 */
import type { Result } from '../../../ctl/client/index.js';
import type { ClusterMember } from '../model.js';
import { portFail, portOk, type MemberStatusInfo, type PortResult } from '../ports.js';
import type { ClientPool } from './client-pool.js';

const ALARM_NAMES: Readonly<Record<number, string>> = { 0: 'NONE', 1: 'NOSPACE', 2: 'CORRUPT' };
const UNIMPLEMENTED = 12;
const AUTH_REFUSALS: ReadonlySet<string> = new Set(['UserEmpty', 'PermissionDenied', 'InvalidAuthToken']);

export const hexId = (id: bigint): string => id.toString(16).padStart(16, '0');

function parseHexId(id: string): bigint | undefined {
  return /^[0-9a-f]{1,16}$/i.test(id) ? BigInt(`0x${id}`) : undefined;
}

function lift<T, U>(url: string, what: string, r: Result<T>, map: (v: T) => U): PortResult<U> {
  return r.ok ? portOk(map(r.value)) : portFail(`${what} at ${url}: ${r.error.message}`);
}

const opts = (signal?: AbortSignal): { signal?: AbortSignal } => (signal === undefined ? {} : { signal });

export class GrpcCalls {
  constructor(private readonly pool: ClientPool) {}

  async status(url: string, signal?: AbortSignal): Promise<PortResult<MemberStatusInfo>> {
    const r = await this.pool.of(url).maintenance.status(opts(signal));
    return lift(url, 'Maintenance.Status', r, (s) => ({
      memberId: hexId(s.header?.memberId ?? 0n),
      leaderId: hexId(s.leader),
      revision: Number(s.header?.revision ?? 0n),
      raftIndex: Number(s.raftIndex),
      isLearner: s.isLearner,
      version: s.version,
    }));
  }

  async alarms(url: string, signal?: AbortSignal): Promise<PortResult<readonly string[]>> {
    const r = await this.pool.of(url).maintenance.alarmList(opts(signal));
    return lift(url, 'Maintenance.Alarm', r, (a) => a.alarms.map((m) => `${hexId(m.memberID)}:${ALARM_NAMES[m.alarm] ?? String(m.alarm)}`));
  }

  async linearizableRead(url: string, signal?: AbortSignal): Promise<PortResult<void>> {
    const r = await this.pool.of(url).kv.get('kvstore-operator/probe', { serializable: false, ...opts(signal) });
    return lift(url, 'linearizable Range', r, () => undefined);
  }

  /**
   * Auth.AuthStatus (3.5). Where it is missing (Unimplemented, or `not capable` before 3.5) a
   * Range without credentials tells: refused for lack of a user = auth is on.
   */
  async authEnabled(url: string, signal?: AbortSignal): Promise<PortResult<boolean>> {
    const r = await this.pool.of(url).auth.status(opts(signal));
    if (r.ok || (r.error.code !== UNIMPLEMENTED && r.error.kind !== 'NotCapable')) return lift(url, 'Auth.AuthStatus', r, (s) => s.enabled);
    const read = await this.pool.of(url).kv.get('kvstore-operator/probe', { serializable: true, ...opts(signal) });
    if (read.ok) return portOk(false);
    if (AUTH_REFUSALS.has(read.error.kind)) return portOk(true);
    return portFail(`auth probe at ${url}: ${read.error.message}`);
  }

  async memberList(url: string, signal?: AbortSignal): Promise<PortResult<readonly ClusterMember[]>> {
    const r = await this.pool.of(url).cluster.memberList(opts(signal));
    return lift(url, 'Cluster.MemberList', r, (l) =>
      l.members.map((m) => ({ id: hexId(m.ID), name: m.name, peerURLs: [...m.peerURLs], isLearner: m.isLearner })),
    );
  }

  async addLearner(url: string, peerURL: string): Promise<PortResult<string>> {
    const r = await this.pool.of(url).cluster.memberAdd([peerURL], { isLearner: true });
    return lift(url, 'Cluster.MemberAdd', r, (a) => hexId(a.member?.ID ?? 0n));
  }

  async promote(url: string, memberId: string): Promise<PortResult<void>> {
    const id = parseHexId(memberId);
    if (id === undefined) return portFail(`Cluster.MemberPromote: bad member id ${memberId}`);
    return lift(url, 'Cluster.MemberPromote', await this.pool.of(url).cluster.memberPromote(id), () => undefined);
  }

  async remove(url: string, memberId: string): Promise<PortResult<void>> {
    const id = parseHexId(memberId);
    if (id === undefined) return portFail(`Cluster.MemberRemove: bad member id ${memberId}`);
    return lift(url, 'Cluster.MemberRemove', await this.pool.of(url).cluster.memberRemove(id), () => undefined);
  }
}
