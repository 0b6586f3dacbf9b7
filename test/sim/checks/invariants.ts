/**
 * Cluster invariants, checked after every step of a simulated world (at a quiescent point:
 * no task queued, no microtask pending):
 *
 * - election safety: at most one member is leader in a term (over the whole run);
 * - log matching: two written logs holding an entry with the same index and term hold the
 *   same prefix up to it (checked as entries are written: chain value per (index, term));
 * - committed entries never change: the log prefix every member has applied is one global
 *   sequence (compared through the chain value at the applied index);
 * - no committed entry lost: that committed prefix is in the durable WAL of a quorum — a
 *   majority of the smallest voter set the run has had (membership may change) — above
 *   the founding entries, which each founding member writes for itself;
 * - applied only once durable here: the entry at a member's applied index is in its own
 *   durable WAL (a member applies, and answers, only what its disk holds);
 * - state machine safety: every member that applies a revision produces the same events
 *   (encoded, compared by hash), and the same applied index means the same revision;
 * - revisions only grow: within an incarnation, applied index and revision never go back,
 *   and across members a higher applied index never has a lower revision.
 *
 * Violations are collected as text; the world stops at the first step that produced any.
 */
import { createHash } from 'node:crypto';
import { Event, type Event as EventT } from '../../../proto/gen/etcd/kv.js';
import type { LogImage, Placed } from '../world/log-image.js';

/** What the checks read from one running, started member. */
export interface MemberView {
  readonly id: bigint;
  readonly generation: number;
  readonly isLeader: boolean;
  readonly term: number;
  readonly appliedIndex: number;
  readonly currentRevision: bigint;
  /**
   * True while the store already holds a snapshot's state but the member has not taken its
   * index as applied yet (the store's consistent index is ahead of the applied index).
   */
  readonly installing: boolean;
  /** The log as this incarnation's WAL holds it (written, synced or not). */
  readonly written: LogImage;
}

export interface ClusterView {
  readonly members: readonly MemberView[];
  /** Durable WAL image of every member, up or down. */
  readonly durable: ReadonlyMap<bigint, LogImage>;
  /** How many durable WALs must hold the committed prefix. */
  readonly quorum: number;
}

export class Invariants {
  readonly violations: string[] = [];
  /**
   * Entries up to this index are committed by construction (the founding entries every
   * founding member writes itself), not by a quorum: the durable-quorum check starts above.
   */
  readonly #preCommitted: number;

  constructor(preCommitted = 0) {
    this.#preCommitted = preCommitted;
  }

  readonly #leaders = new Map<number, bigint>();
  readonly #chainAt = new Map<string, { chain: string; by: bigint }>();
  /** committed[i] = chain value at index i + 1 of the committed prefix. */
  readonly #committed: string[] = [];
  readonly #eventsAt = new Map<bigint, { hash: string; by: bigint; summary: string }>();
  /** revisionAt[i] = revision after applying index i (sparse). */
  readonly #revisionAt: Array<bigint | undefined> = [];
  readonly #last = new Map<bigint, { generation: number; applied: number; revision: bigint }>();

  get committedIndex(): number {
    return this.#committed.length;
  }

  /** The committed log's chain value at `index` (undefined beyond what any member applied). */
  committedChainAt(index: number): string | undefined {
    if (index === 0) return '';
    return this.#committed[Number(index) - 1];
  }

  #fail(message: string): void {
    this.violations.push(message);
  }

  /**
   * An entry was written to member `id`'s WAL; its chain value covers its whole prefix.
   * A member may write over an entry only if that entry was not committed.
   */
  onWritten(id: bigint, p: Placed): void {
    const { index, term } = p.entry;
    const key = `${index}:${term}`;
    const seen = this.#chainAt.get(key);
    if (seen === undefined) this.#chainAt.set(key, { chain: p.chain, by: id });
    else if (seen.chain !== p.chain) this.#fail(`log matching: m${id} wrote index ${index} term ${term} with a prefix different from m${seen.by}'s`);
    if (p.replaced !== undefined && p.replaced !== p.chain && index <= this.committedIndex && this.#committed[Number(index) - 1] === p.replaced) {
      this.#fail(`committed entry overwritten: m${id} replaced committed index ${index} with an entry of term ${term}`);
    }
  }

  /** Member `id` applied a write at `revision` producing `events`. */
  onEvents(id: bigint, revision: bigint, events: readonly EventT[]): void {
    const h = createHash('sha1');
    for (const e of events) h.update(Event.encode(e).finish());
    const hash = h.digest('base64');
    const seen = this.#eventsAt.get(revision);
    const summary = events.map((e) => `${e.type === 1 ? 'DEL' : 'PUT'} ${e.kv?.key.toString()}=${e.kv?.value.toString()}`).join(', ');
    if (seen === undefined) this.#eventsAt.set(revision, { hash, by: id, summary });
    else if (seen.hash !== hash) this.#fail(`state machine safety: m${id} applied revision ${revision} as [${summary}], m${seen.by} as [${seen.summary}]`);
  }

  afterStep(view: ClusterView): void {
    for (const m of view.members) {
      this.#checkLeader(m);
      this.#checkApplied(m);
      this.#checkAppliedDurable(m, view.durable.get(m.id));
      if (!m.installing) this.#checkRevision(m);
    }
    this.#checkDurableQuorum(view);
  }

  #checkLeader(m: MemberView): void {
    if (!m.isLeader) return;
    const other = this.#leaders.get(m.term);
    if (other === undefined) this.#leaders.set(m.term, m.id);
    else if (other !== m.id) this.#fail(`election safety: m${m.id} and m${other} both leaders in term ${m.term}`);
  }

  #checkApplied(m: MemberView): void {
    const a = m.appliedIndex;
    if (a === 0) return;
    const mine = m.written.chainAt(a);
    if (mine === undefined) {
      this.#fail(`m${m.id} applied index ${a} beyond its log (last ${m.written.lastIndex})`);
      return;
    }
    const c = this.committedIndex;
    if (a <= c) {
      if (this.#committed[Number(a) - 1] !== mine) this.#fail(`committed prefix differs: m${m.id} applied up to ${a} a log that differs from the committed one`);
      return;
    }
    if (c > 0 && m.written.chainAt(c) !== this.#committed[Number(c) - 1]) {
      this.#fail(`committed prefix differs: m${m.id} (applied ${a}) disagrees with the committed prefix at ${c}`);
      return;
    }
    for (let i = c + 1; i <= a; i++) {
      const chain = m.written.chainAt(i);
      if (chain === undefined) {
        this.#fail(`m${m.id} applied index ${a} but its log does not hold index ${i} (snapshot base ${m.written.base}), beyond the committed prefix ${c}`);
        return;
      }
      this.#committed.push(chain);
    }
  }

  #checkAppliedDurable(m: MemberView, durable: LogImage | undefined): void {
    const a = m.appliedIndex;
    if (a === 0 || m.installing || durable === undefined) return;
    const mine = m.written.chainAt(a);
    if (mine !== undefined && durable.chainAt(a) !== mine) this.#fail(`m${m.id} applied index ${a} before its own WAL held it durably (durable last ${durable.lastIndex})`);
  }

  #checkRevision(m: MemberView): void {
    const last = this.#last.get(m.id);
    if (last && last.generation === m.generation && (m.appliedIndex < last.applied || m.currentRevision < last.revision)) {
      this.#fail(`m${m.id} went back: applied ${last.applied}→${m.appliedIndex}, revision ${last.revision}→${m.currentRevision}`);
    }
    this.#last.set(m.id, { generation: m.generation, applied: m.appliedIndex, revision: m.currentRevision });
    const i = Number(m.appliedIndex);
    const known = this.#revisionAt[i];
    if (known !== undefined) {
      if (known !== m.currentRevision) this.#fail(`m${m.id} is at revision ${m.currentRevision} after applying index ${i}; another member was at ${known}`);
      return;
    }
    this.#revisionAt[i] = m.currentRevision;
    let lo = i - 1;
    while (lo >= 0 && this.#revisionAt[lo] === undefined) lo--;
    let hi = i + 1;
    while (hi < this.#revisionAt.length && this.#revisionAt[hi] === undefined) hi++;
    const below = lo >= 0 ? this.#revisionAt[lo] : undefined;
    const above = this.#revisionAt[hi];
    if ((below !== undefined && below > m.currentRevision) || (above !== undefined && above < m.currentRevision)) {
      this.#fail(`revisions out of order: m${m.id} at revision ${m.currentRevision} after index ${i}; index ${lo} had ${below}, index ${hi} had ${above}`);
    }
  }

  #checkDurableQuorum(view: ClusterView): void {
    const c = this.committedIndex;
    if (c <= this.#preCommitted) return;
    const want = this.#committed[Number(c) - 1];
    let holders = 0;
    for (const log of view.durable.values()) if (log.chainAt(c) === want) holders++;
    if (holders < view.quorum) this.#fail(`committed entry lost: index ${c} is durable on ${holders} members, quorum is ${view.quorum}`);
  }
}
