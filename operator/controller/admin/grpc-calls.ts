/**
 * The member admin calls that go over gRPC through the typed client: Maintenance.Status,
 * Alarm list, a linearizable Range, Auth.AuthStatus, Cluster.MemberList / MemberAdd (learner)
 * / MemberPromote / MemberRemove.
 *
 * Contract: ids are 16 hex digits in and out; every call is bounded by the pool's command
 * timeout (and the caller's signal); client errors become `PortResult` failures with the
 * client's message and the URL.
 *
 * Credentials: every call but the auth probe goes as the root user when the pool has
 * credentials. A member with auth disabled refuses to authenticate anyone
 * (`authentication is not enabled`): the call is then made again without a token, and that
 * member's calls go without one from then on until a call with the token works again. The auth
 * probe never carries a token (see `authEnabled`).
 */
import type { Client, Result } from '../../../ctl/client/index.js';
import type { ClusterMember } from '../model.js';
import { portFail, portOk, type MemberStatusInfo, type PortResult } from '../ports.js';
import type { ClientPool } from './client-pool.js';

const ALARM_NAMES: Readonly<Record<number, string>> = { 0: 'NONE', 1: 'NOSPACE', 2: 'CORRUPT' };
const UNIMPLEMENTED = 12;
/** Answers that mean "auth is on and you are nobody / not allowed". */
const AUTH_REFUSALS: ReadonlySet<string> = new Set(['UserEmpty', 'PermissionDenied', 'InvalidAuthToken', 'AuthFailed']);

export const hexId = (id: bigint): string => id.toString(16).padStart(16, '0');

function parseHexId(id: string): bigint | undefined {
  return /^[0-9a-f]{1,16}$/i.test(id) ? BigInt(`0x${id}`) : undefined;
}

function lift<T, U>(url: string, what: string, r: Result<T>, map: (v: T) => U): PortResult<U> {
  return r.ok ? portOk(map(r.value)) : portFail(`${what} at ${url}: ${r.error.message}`);
}

const opts = (signal?: AbortSignal): { signal?: AbortSignal } => (signal === undefined ? {} : { signal });

export class GrpcCalls {
  /** Members that refused to authenticate because their auth is disabled. */
  private readonly authDisabled = new Set<string>();

  constructor(private readonly pool: ClientPool) {}

  /** The client the next admin call to `url` uses. */
  clientFor(url: string): Client {
    return this.authDisabled.has(url) ? this.pool.anonymous(url) : this.pool.admin(url);
  }

  /** `call` as root; without a token when the member says its auth is disabled. */
  private async asAdmin<T>(url: string, call: (c: Client) => Promise<Result<T>>): Promise<Result<T>> {
    if (!this.pool.hasCredentials) return call(this.pool.anonymous(url));
    if (this.authDisabled.has(url)) {
      const r = await call(this.pool.anonymous(url));
      // Refused for lack of a user: auth was turned on since; go as root again.
      if (r.ok || !AUTH_REFUSALS.has(r.error.kind)) return r;
      this.authDisabled.delete(url);
    }
    const r = await call(this.pool.admin(url));
    if (r.ok || r.error.kind !== 'AuthNotEnabled') return r;
    this.authDisabled.add(url);
    return call(this.pool.anonymous(url));
  }

  async status(url: string, signal?: AbortSignal): Promise<PortResult<MemberStatusInfo>> {
    const r = await this.asAdmin(url, (c) => c.maintenance.status(opts(signal)));
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
    const r = await this.asAdmin(url, (c) => c.maintenance.alarmList(opts(signal)));
    return lift(url, 'Maintenance.Alarm', r, (a) => a.alarms.map((m) => `${hexId(m.memberID)}:${ALARM_NAMES[m.alarm] ?? String(m.alarm)}`));
  }

  async linearizableRead(url: string, signal?: AbortSignal): Promise<PortResult<void>> {
    const r = await this.asAdmin(url, (c) => c.kv.get('kvstore-operator/probe', { serializable: false, ...opts(signal) }));
    return lift(url, 'linearizable Range', r, () => undefined);
  }

  /**
   * Auth.AuthStatus (3.5) without a token: `enabled`, or a refusal for lack of a user /
   * permission = on. Where it is missing (Unimplemented, or `not capable` before 3.5) a Range
   * without a token tells: refused for lack of a user = on, answered = off. Anything else
   * (unreachable, a timeout, another error) is a failure: the caller must not read it as "off".
   */
  async authEnabled(url: string, signal?: AbortSignal): Promise<PortResult<boolean>> {
    const anon = this.pool.anonymous(url);
    const r = await anon.auth.status(opts(signal));
    if (r.ok) return portOk(r.value.enabled);
    if (AUTH_REFUSALS.has(r.error.kind)) return portOk(true);
    if (r.error.code !== UNIMPLEMENTED && r.error.kind !== 'NotCapable') return portFail(`Auth.AuthStatus at ${url}: ${r.error.message}`);
    const read = await anon.kv.get('kvstore-operator/probe', { serializable: true, ...opts(signal) });
    if (read.ok) return portOk(false);
    if (AUTH_REFUSALS.has(read.error.kind)) return portOk(true);
    return portFail(`auth probe at ${url}: ${read.error.message}`);
  }

  async memberList(url: string, signal?: AbortSignal): Promise<PortResult<readonly ClusterMember[]>> {
    const r = await this.asAdmin(url, (c) => c.cluster.memberList(opts(signal)));
    return lift(url, 'Cluster.MemberList', r, (l) =>
      l.members.map((m) => ({ id: hexId(m.ID), name: m.name, peerURLs: [...m.peerURLs], isLearner: m.isLearner })),
    );
  }

  async addLearner(url: string, peerURL: string): Promise<PortResult<string>> {
    const r = await this.asAdmin(url, (c) => c.cluster.memberAdd([peerURL], { isLearner: true }));
    return lift(url, 'Cluster.MemberAdd', r, (a) => hexId(a.member?.ID ?? 0n));
  }

  async promote(url: string, memberId: string): Promise<PortResult<void>> {
    const id = parseHexId(memberId);
    if (id === undefined) return portFail(`Cluster.MemberPromote: bad member id ${memberId}`);
    return lift(url, 'Cluster.MemberPromote', await this.asAdmin(url, (c) => c.cluster.memberPromote(id)), () => undefined);
  }

  async remove(url: string, memberId: string): Promise<PortResult<void>> {
    const id = parseHexId(memberId);
    if (id === undefined) return portFail(`Cluster.MemberRemove: bad member id ${memberId}`);
    return lift(url, 'Cluster.MemberRemove', await this.asAdmin(url, (c) => c.cluster.memberRemove(id)), () => undefined);
  }
}
