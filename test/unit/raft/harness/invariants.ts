/**
 * The safety properties of the Raft paper (Figure 3), checked against a running Network:
 *
 * - Election Safety: at most one leader per term.
 * - Leader Append-Only: while a node leads a term, its log only grows.
 * - Log Matching: two logs with an entry of the same index and term are identical up to it.
 * - Leader Completeness: an entry committed in a term is in the log of every leader of a later term.
 * - State Machine Safety: no two nodes apply different entries at the same index; committed
 *   entries never change in any log that has them committed.
 *
 * Logs are read from each node's storage (what it persisted); checks that need a node's whole
 * log run right after its Ready is handled, when nothing is unstable.
 */
import type { Entry } from '../../../../server/raft/log-types.js';
import type { Ready } from '../../../../server/raft/index.js';
import type { Applied, Network, TestNode } from './network.js';

interface AppliedRecord {
  readonly term: number;
  readonly data: string;
  /** Highest term of any node when it was first applied: it was committed in a term <= this. */
  readonly termBound: number;
}

export class InvariantChecker {
  readonly #net: Network;
  readonly #leaders = new Map<number, bigint>();
  readonly #applied = new Map<number, AppliedRecord>();
  /** Per leading node: the term and the log it had when last observed. */
  readonly #leaderLogs = new Map<bigint, { term: number; log: Entry[] }>();

  constructor(net: Network) {
    this.#net = net;
    net.onApply = (n, a) => this.#onApply(n, a);
    net.onReady = (n, rd) => this.#onReady(n, rd);
  }

  #maxTerm(): number {
    let t = 0;
    for (const id of this.#net.ids()) {
      const s = this.#net.get(id).node.status().term;
      if (s > t) t = s;
    }
    return t;
  }

  #onApply(n: TestNode, a: Applied): void {
    const prev = this.#applied.get(a.index);
    if (prev === undefined) {
      this.#applied.set(a.index, { term: a.term, data: a.data, termBound: this.#maxTerm() });
    } else if (prev.term !== a.term || prev.data !== a.data) {
      throw new Error(`state machine safety: node ${n.id} applied ${a.term}/${a.index} ${a.data}, another applied ${prev.term}/${a.index} ${prev.data}`);
    }
  }

  #onReady(n: TestNode, _rd: Ready): void {
    const s = n.node.status();
    if (s.raftState !== 'Leader' || s.lastIndex !== n.storage.lastIndex()) return;
    const log = persistedLog(n);
    // Leader Completeness: everything committed in an earlier term is in this leader's log.
    const first = n.storage.firstIndex();
    for (const [index, rec] of this.#applied) {
      if (rec.termBound >= s.term || index < first) continue;
      const e = log[Number(index - first)];
      if (e === undefined || e.term !== rec.term) {
        throw new Error(`leader completeness: leader ${n.id} of term ${s.term} lacks committed entry ${rec.term}/${index}`);
      }
    }
    // Leader Append-Only.
    const before = this.#leaderLogs.get(n.id);
    if (before !== undefined && before.term === s.term) {
      for (const e of before.log) {
        if (e.index < first) continue;
        const now = log[Number(e.index - first)];
        if (now === undefined || now.term !== e.term || !now.data.equals(e.data)) {
          throw new Error(`leader append-only: leader ${n.id} of term ${s.term} changed entry ${e.term}/${e.index}`);
        }
      }
    }
    this.#leaderLogs.set(n.id, { term: s.term, log });
  }

  /** Checks what can be checked at any moment; throws on a violation. */
  check(): void {
    const nodes = this.#net.ids().map((id) => this.#net.get(id));
    for (const n of nodes) {
      const s = n.node.status();
      if (s.raftState === 'Leader') {
        const other = this.#leaders.get(s.term);
        if (other !== undefined && other !== n.id) throw new Error(`election safety: ${other} and ${n.id} both lead term ${s.term}`);
        this.#leaders.set(s.term, n.id);
      } else if (this.#leaderLogs.get(n.id) !== undefined) {
        this.#leaderLogs.delete(n.id);
      }
    }
    const logs = nodes.map((n) => ({ id: n.id, first: n.storage.firstIndex(), log: persistedLog(n), commit: n.storage.hardState().commit }));
    for (const l of logs) {
      // Committed entries never change.
      for (const e of l.log) {
        if (e.index > l.commit) break;
        const rec = this.#applied.get(e.index);
        if (rec !== undefined && rec.term !== e.term) throw new Error(`node ${l.id} holds ${e.term}/${e.index} but ${rec.term}/${e.index} was committed`);
      }
    }
    // Log Matching, pairwise.
    for (let a = 0; a < logs.length; a++) {
      for (let b = a + 1; b < logs.length; b++) logMatching(logs[a]!, logs[b]!);
    }
  }
}

function persistedLog(n: TestNode): Entry[] {
  const st = n.storage;
  const r = st.entries(st.firstIndex(), st.lastIndex() + 1, Number.MAX_SAFE_INTEGER);
  return r.ok ? r.value : [];
}

function logMatching(a: { id: bigint; first: number; log: Entry[] }, b: { id: bigint; first: number; log: Entry[] }): void {
  const lo = a.first > b.first ? a.first : b.first;
  const aLast = a.first + a.log.length - 1;
  const bLast = b.first + b.log.length - 1;
  const hi = aLast < bLast ? aLast : bLast;
  let matched = false;
  // Walking down from the highest common index: once terms agree, everything below must too.
  for (let i = hi; i >= lo; i--) {
    const ea = a.log[Number(i - a.first)]!;
    const eb = b.log[Number(i - b.first)]!;
    if (ea.term === eb.term) {
      if (!ea.data.equals(eb.data) || ea.type !== eb.type) throw new Error(`log matching: ${a.id} and ${b.id} differ in data at ${ea.term}/${i}`);
      matched = true;
    } else if (matched) {
      throw new Error(`log matching: ${a.id} and ${b.id} agree above ${i} but differ at ${i} (${ea.term} vs ${eb.term})`);
    }
  }
}
