/**
 * An in-memory V2Port for tests: one V2Store applied in place (every proposal is
 * "committed" at once, raft index + 1), a virtual clock, and a member list held in memory.
 * `failNext` makes the next proposal fail with a DomainError (a replication failure).
 */
import { fail, ok, type DomainError, type Result } from '../../../server/errors/domain-error.js';
import type { MemberResult, V2Member, V2Port } from '../../../server/api/http/v2/port.js';
import type { V2Error } from '../../../server/v2store/errors.js';
import { V2Store } from '../../../server/v2store/store.js';
import type { V2Event, V2Request } from '../../../server/v2store/types.js';

export interface MemoryPort extends V2Port {
  readonly store: V2Store;
  /** Virtual wall clock (ms). */
  nowMs: number;
  failNext: DomainError | undefined;
  membersList: V2Member[];
  leaderId: string | undefined;
  removedIds: Set<string>;
  proposals: V2Request[];
  /** Advances the clock and expires due keys, as the member's expiry pass does. */
  advance(ms: number): V2Event[];
}

export function createMemoryPort(store = new V2Store(), startMs = Date.UTC(2026, 10, 21, 9, 0, 0)): MemoryPort {
  let raftIndex = 10n;
  const port: MemoryPort = {
    store,
    nowMs: startMs,
    failNext: undefined,
    membersList: [{ id: 'bdae9bbc11dd390d', name: 'probe', peerURLs: ['http://127.0.0.1:23801'], clientURLs: ['http://127.0.0.1:23791'] }],
    leaderId: 'bdae9bbc11dd390d',
    removedIds: new Set(),
    proposals: [],
    clusterIdHex: 'd1cfaf999eb97a2a',
    async propose(req): Promise<Result<V2Event | V2Error>> {
      port.proposals.push(req);
      if (port.failNext) {
        const e = port.failNext;
        port.failNext = undefined;
        return fail(e);
      }
      raftIndex++;
      const r = store.apply(req, port.nowMs);
      return ok(r.ok ? r.value : r.error);
    },
    read(path, opts) {
      const r = store.get(path, opts, port.nowMs);
      return r.ok ? r.value : r.error;
    },
    watch(path, opts, onEvent) {
      const r = store.watch(path, opts, onEvent);
      return r.ok ? r.value : r.error;
    },
    index: () => store.index(),
    raftIndex: () => raftIndex,
    raftTerm: () => 2n,
    members: () => port.membersList,
    leader: () => port.membersList.find((m) => m.id === port.leaderId),
    async addMember(peerURLs): Promise<MemberResult<V2Member>> {
      if (port.membersList.some((m) => m.peerURLs.some((u) => peerURLs.includes(u)))) return { ok: false, error: { kind: 'PeerUrlExists' } };
      const m: V2Member = { id: (0x2928272ddaf27e15n + BigInt(port.membersList.length)).toString(16), name: '', peerURLs: [...peerURLs], clientURLs: [] };
      port.membersList.push(m);
      return { ok: true, value: m };
    },
    async removeMember(id): Promise<MemberResult<void>> {
      const hex = id.toString(16);
      if (port.removedIds.has(hex)) return { ok: false, error: { kind: 'MemberRemoved' } };
      const i = port.membersList.findIndex((m) => m.id === hex);
      if (i < 0) return { ok: false, error: { kind: 'MemberNotFound' } };
      port.membersList.splice(i, 1);
      port.removedIds.add(hex);
      return { ok: true, value: undefined };
    },
    async updateMember(id, peerURLs): Promise<MemberResult<void>> {
      const hex = id.toString(16);
      const m = port.membersList.find((x) => x.id === hex);
      if (!m) return { ok: false, error: { kind: 'MemberNotFound' } };
      if (port.membersList.some((x) => x !== m && x.peerURLs.some((u) => peerURLs.includes(u)))) return { ok: false, error: { kind: 'PeerUrlExists' } };
      port.membersList = port.membersList.map((x) => (x === m ? { ...x, peerURLs: [...peerURLs] } : x));
      return { ok: true, value: undefined };
    },
    advance(ms) {
      port.nowMs += ms;
      return store.deleteExpired(port.nowMs);
    },
  };
  return port;
}

/** Three internal writes under /0, so indices line up with a freshly bootstrapped etcd 3.4. */
export function bootstrapLikeEtcd(port: MemoryPort): void {
  const id = port.membersList[0]?.id ?? '1';
  port.store.create(`/0/members/${id}/raftAttributes`, { value: '{"peerURLs":["http://127.0.0.1:23801"]}' }, port.nowMs);
  port.store.set(`/0/members/${id}/attributes`, { value: '{"name":"probe","clientURLs":["http://127.0.0.1:23791"]}' }, port.nowMs);
  port.store.set('/0/version', { value: '3.4.0' }, port.nowMs);
}
