/**
 * The member actor: the single driver of this member's Raft node.
 *
 * Inputs (ticks, peer messages, proposals, read barriers) go into the node synchronously;
 * one loop then handles each Ready in order:
 *   leader: send messages while persisting (they do not depend on this Ready);
 *   (messages are put on the wire as soon as a Ready hands them over: flushSends; while a
 *   leader's write runs, messages its steps produce meanwhile go out too: takeEarlyMessages);
 *   persist entries + hard state to the WAL (one fsync for everything the Ready holds —
 *     proposals that arrived while the previous fsync ran: group commit), applying meanwhile
 *     the committed entries already durable here; follower/candidate: send after persisting;
 *   fail this member's proposals that no leader took (NoLeader), apply the other committed
 *     entries in index order, answering this member's proposers;
 *   release linearizable reads whose index is applied; advance.
 * Applied state reaches the backend through coalesced, unsynced flushes (backend-flusher.ts).
 */
import { ConfChangeContext, InternalRequest } from '../../proto/gen/kvstore/internal.js';
import { EntryType, type Entry, type HardState } from '../raft/log-types.js';
import type * as pb from '../../proto/gen/etcd/rpc.js';
import type { Applied } from '../apply/applier.js';
import { err, type Result } from '../errors/domain-error.js';
import {
  createRaftNode,
  decodeConfChange,
  MemoryRaftStorage,
  RaftState,
  type ConfChangeType,
  type Message,
  type RaftNode,
  type Ready,
} from '../raft/index.js';
import type { PayloadAt, WalContents } from '../wal/types.js';
import { ProposalWaiters } from './proposal-waiters.js';
import { ReadBarriers } from './read-barrier.js';
import { OwnProposals } from './own-proposals.js';
import { BackendFlusher } from './backend-flusher.js';
import { EnvelopeEncoder } from './request-envelope.js';
import type { AuthInfo } from '../auth/auth-store.js';
import { decodeEntryRequest } from '../apply/put-request-decoder.js';
import type { MemberDeps, StartMembership } from './member-deps.js';

export type { MemberDeps, MemberHooks, StartMembership } from './member-deps.js';

type Request = NonNullable<InternalRequest['request']>;

/** What `#persistWhileApplying` did: committed entries applied meanwhile, where the entries went. */
interface Persisted {
  readonly applied: number;
  readonly placed: readonly PayloadAt[];
}

const NOTHING_PERSISTED: Persisted = { applied: 0, placed: [] };

/**
 * Key and value bytes applied but not yet written to the backend above which applying waits for
 * a flush (the backend writes behind the apply, normally a few MiB behind).
 */
const MAX_UNFLUSHED_BYTES = 64 * 1024 * 1024;

/** Default `logWindowBytes`. */
const LOG_WINDOW_BYTES = 64 * 1024 * 1024;

/**
 * Committed entries handed out per Ready, in payload bytes (etcd's is one message's size): after
 * a restart, the entries applied again are read from the WAL a bounded batch at a time.
 */
const MAX_COMMITTED_BYTES_PER_READY = 8 * 1024 * 1024;

export class Member {
  readonly #d: MemberDeps;
  readonly #waiters: ProposalWaiters;
  readonly #envelopes: EnvelopeEncoder;
  readonly #own = new OwnProposals();
  readonly #flusher: BackendFlusher;
  readonly #reads: ReadBarriers;
  readonly #storage: MemoryRaftStorage<PayloadAt>;
  #node: RaftNode | undefined;
  #hard: HardState = { term: 0, vote: 0n, commit: 0 };
  /** `#hard.term` as the bigint a response header carries (made once per term, not per response). */
  #termHeader = 0n;
  #lead = 0n;
  #appliedIndex = 0;
  #stopTicker: (() => void) | undefined;
  #scheduled = false;
  #running = false;
  #again = false;
  #snapshotIndex = 0;
  #snapshotting = false;
  /** An entry's changes are in the store but its index is not yet the applied index. */
  #midEntry: Promise<void> | undefined;
  /** Snapshot images received from the leader and waiting for their Ready: index → loader. */
  readonly #installs = new Map<number, () => Promise<void>>();
  #stopped = false;
  /** A Ready with sendBeforePersist is being written to the WAL (see #scheduleEarlySend). */
  #leaderPersisting = false;

  constructor(deps: MemberDeps) {
    this.#d = deps;
    this.#storage = new MemoryRaftStorage<PayloadAt>({ bytes: deps.logWindowBytes ?? LOG_WINDOW_BYTES, read: (at) => deps.wal.readPayload(at) });
    this.#waiters = new ProposalWaiters(BigInt(deps.scheduler.now()) << 16n);
    this.#reads = new ReadBarriers(deps.memberId);
    this.#envelopes = new EnvelopeEncoder(deps.memberId);
    this.#flusher = new BackendFlusher({
      scheduler: deps.scheduler,
      write: (sync) => this.#writeBackend(sync),
      stopped: () => this.#stopped,
      onFatal: (e) => deps.hooks.onFatal(e),
    });
  }

  get memberId(): bigint {
    return this.#d.memberId;
  }
  get clusterId(): bigint {
    return this.#d.clusterId;
  }
  get term(): number {
    return this.#hard.term;
  }
  get committedIndex(): number {
    return this.#hard.commit > this.#appliedIndex ? this.#hard.commit : this.#appliedIndex;
  }
  get appliedIndex(): number {
    return this.#appliedIndex;
  }
  get leaderId(): bigint {
    return this.#stopped ? 0n : this.#lead;
  }
  get isLeader(): boolean {
    return this.leaderId === this.#d.memberId;
  }
  get pendingProposals(): number {
    return this.#waiters.size;
  }

  /** The full response header at `revision`. */
  header(revision: bigint): pb.ResponseHeader {
    return { clusterId: this.#d.clusterId, memberId: this.#d.memberId, revision, raftTerm: this.#termHeader };
  }

  /**
   * Rebuilds the Raft log from the WAL and starts the node; entries after the store's
   * consistent index are applied again by the first Readies. Runs once, before anything else.
   */
  async start(contents: WalContents, membership: StartMembership): Promise<void> {
    const applied = Number(this.#d.store.consistentIndex);
    const boot = membership.bootstrapEntries;
    if (boot.length > 0) {
      // A new cluster: the initial members enter the log as committed conf changes at term 1,
      // identical on every founding member, so later members learn them from the log.
      const hs = { term: 1, vote: 0n, commit: boot[boot.length - 1]!.index };
      await this.#d.wal.save(boot, hs);
      contents = { ...contents, hardState: hs, entries: [...boot] };
    }
    const known = { voters: [...membership.voters], learners: [...membership.learners] };
    if (contents.snapshot) {
      // The member list as of the applied index is newer than the snapshot's conf state.
      const confState = known.voters.length > 0 ? known : contents.snapshot.confState;
      this.#storage.applySnapshot({ metadata: { ...contents.snapshot, confState }, data: Buffer.alloc(0) });
    }
    this.#storage.append(contents.entries, contents.entries.map((e) => e.at));
    const last = this.#storage.lastIndex();
    // Commit-only hard states are not fsynced; whatever was applied was committed.
    const commit = [contents.hardState.commit, applied < last ? applied : last].reduce((a, b) => (a > b ? a : b));
    this.#setHard({ ...contents.hardState, commit });
    this.#storage.setHardState(this.#hard);
    this.#appliedIndex = applied;
    this.#snapshotIndex = contents.snapshot?.index ?? 0;
    this.#node = createRaftNode({
      id: this.#d.memberId,
      voters: known.voters,
      learners: known.learners,
      electionTicks: this.#d.electionTicks,
      heartbeatTicks: 1,
      preVote: this.#d.preVote,
      checkQuorum: true,
      maxInflight: 256,
      maxSizePerMsg: 1024 * 1024,
      maxCommittedSizePerReady: MAX_COMMITTED_BYTES_PER_READY,
      rng: this.#d.random,
      storage: this.#storage,
      applied: applied < this.#storage.firstIndex() - 1 ? undefined : applied,
    });
    this.#schedule();
    await this.#settled();
    // The only voter need not wait an election timeout.
    const voters = this.#node.status().confState.voters;
    if (voters.length === 1 && voters[0] === this.#d.memberId) {
      this.#node.campaign();
      this.#schedule();
      await this.#settled();
    }
    this.#stopTicker = this.#d.scheduler.every(this.#d.tickMs, () => this.#tick());
  }

  /**
   * Proposes a request; resolves with its applied outcome (or Timeout / Stopped). `raw`, when
   * given, is the client's encoding of `request.value` (api/raw-request.ts): the log entry
   * then carries those bytes, and this member applies `request` itself instead of decoding
   * the entry (the same message, decoded from the same bytes). `auth`, given while auth is
   * enabled, names the caller in the entry's header: the apply step checks it again.
   */
  propose(request: Request, raw?: Uint8Array, auth?: AuthInfo): Promise<Result<Applied>> {
    if (this.#stopped || !this.#node) return Promise.resolve(err('Stopped'));
    const { id, outcome } = this.#waiters.register(this.#d.scheduler.now() + this.#d.requestTimeoutMs);
    const header = this.#envelopes.header(id, auth);
    const data = this.#envelopes.encode(header, request, raw);
    if (data.length > this.#d.maxRequestBytes) {
      this.#waiters.resolve(id, err('RequestTooLarge'));
      return outcome;
    }
    if (raw !== undefined) this.#own.proposed(data, { header, request });
    const res = this.#node.propose(data);
    if (!res.ok) this.#waiters.resolve(id, err(this.#lead === 0n ? 'NoLeader' : 'Timeout'));
    else this.#schedule();
    return outcome;
  }

  /** Proposes a membership change carrying `member` (the record it adds or changes). */
  proposeConfChange(type: ConfChangeType, nodeId: bigint, member: pb.Member): Promise<Result<Applied>> {
    if (this.#stopped || !this.#node) return Promise.resolve(err('Stopped'));
    const { id, outcome } = this.#waiters.register(this.#d.scheduler.now() + this.#d.requestTimeoutMs);
    const context = Buffer.from(ConfChangeContext.encode({ header: this.#envelopes.header(id), member }).finish());
    const res = this.#node.proposeConfChange({ type, nodeId, context });
    if (!res.ok) this.#waiters.resolve(id, err(this.#lead === 0n ? 'NoLeader' : 'Timeout'));
    else this.#schedule();
    return outcome;
  }

  /** Hands leadership to `target`; resolves when it leads, or fails after the request timeout. */
  async transferLeadership(target: bigint): Promise<Result<void>> {
    if (!this.#node) return err('Stopped');
    if (this.#lead === target) return { ok: true, value: undefined };
    this.#node.transferLeader(target);
    this.#schedule();
    const deadline = this.#d.scheduler.now() + this.#d.requestTimeoutMs;
    while (this.#d.scheduler.now() < deadline && !this.#stopped) {
      await this.#d.scheduler.sleep(this.#d.tickMs);
      if (this.#lead === target) return { ok: true, value: undefined };
    }
    return err('LeaderTransferTimeout');
  }

  /** Replication progress as the leader tracks it (empty on followers): member id → matched index. */
  progress(): ReadonlyMap<bigint, number> {
    const out = new Map<bigint, number>();
    for (const [id, p] of this.#node?.status().progress ?? []) out.set(id, p.match);
    return out;
  }

  /**
   * Resolves once this member has applied everything committed when it was called (linearizable
   * read point). Fails with Timeout after `timeoutMs` (default: the request timeout; checked
   * every tick), e.g. when no quorum confirms the read index.
   */
  readBarrier(timeoutMs: number = this.#d.requestTimeoutMs): Promise<Result<void>> {
    if (this.#stopped || !this.#node) return Promise.resolve(err('Stopped'));
    const p = this.#reads.wait(this.#d.scheduler.now() + timeoutMs);
    this.#schedule();
    return p;
  }

  /** A consensus message from a peer. */
  receive(m: Message): void {
    if (this.#stopped || !this.#node) return;
    try {
      this.#node.step(m);
    } catch (e) {
      // A broken invariant, e.g. a leader's commit index past this member's log (the log was
      // lost): stop taking part at once, as etcd's panic does, then let the process stop.
      this.#halt(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    if (this.#leaderPersisting) this.#scheduleEarlySend();
    this.#schedule();
  }

  #earlySendScheduled = false;
  /**
   * While this leader's own WAL write runs, what peers' messages made it send (above all a new
   * commit index that two followers' acks made) goes out after the current task instead of after
   * the write: the followers need not wait for this member's disk.
   */
  #scheduleEarlySend(): void {
    if (this.#earlySendScheduled) return;
    this.#earlySendScheduled = true;
    this.#d.scheduler.soon(() => {
      this.#earlySendScheduled = false;
      if (this.#node && !this.#stopped) this.#sendAll(this.#node.takeEarlyMessages());
    });
  }

  /**
   * A snapshot message from the leader whose state image has been received; `install`
   * replaces this member's applied state with it when the snapshot's Ready comes.
   */
  receiveSnapshot(m: Message, install: () => Promise<void>): void {
    if (this.#stopped || !this.#node || !m.snapshot) return;
    this.#installs.set(m.snapshot.metadata.index, install);
    try {
      this.#node.step(m);
    } catch (e) {
      this.#halt(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    this.#schedule();
  }

  /** The snapshot message a leader sends to `m.to`, re-pointed at `index` (the index its state image holds). */
  snapshotAt(m: Message, index: number): Message | undefined {
    const term = this.#storage.term(index);
    if (!term.ok || !m.snapshot) return undefined;
    const confState = this.#node!.status().confState;
    return { ...m, snapshot: { metadata: { index, term: term.value, confState }, data: m.snapshot.data } };
  }

  /** Outcome of sending a snapshot to `id`. */
  reportSnapshot(id: bigint, succeeded: boolean): void {
    this.#node?.reportSnapshot(id, succeeded);
    this.#schedule();
  }

  /** The transport could not deliver to `id`. */
  unreachable(id: bigint): void {
    this.#node?.reportUnreachable(id);
  }

  #tick(): void {
    if (!this.#node) return;
    this.#node.tick();
    const now = this.#d.scheduler.now();
    if (this.#waiters.expire(now, err('Timeout')) > 0) this.#d.hooks.onProposalFailed?.();
    this.#reads.expire(now);
    this.#schedule();
  }

  /**
   * Runs the loop after the current task. Group commit needs no delay here: proposals that
   * arrive while a Ready's fsync runs collect in the node and form the next Ready.
   */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#d.scheduler.soon(() => {
      this.#scheduled = false;
      void this.#run();
    });
  }

  async #run(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    try {
      do {
        this.#again = false;
        const node = this.#node!;
        const ctx = this.#reads.takeQueued();
        if (ctx && !node.readIndex(ctx).ok) this.#reads.requeue(ctx);
        while (node.hasReady()) {
          const rd = node.ready();
          await this.#handle(rd);
          node.advance(rd);
        }
      } while (this.#again);
    } catch (e) {
      this.#d.hooks.onFatal(e instanceof Error ? e : new Error(String(e)));
    } finally {
      this.#running = false;
      this.#idle?.();
    }
  }

  #idle: (() => void) | undefined;
  #settled(): Promise<void> {
    if (!this.#running && !this.#scheduled) return Promise.resolve();
    return new Promise((resolve) => {
      this.#idle = () => {
        this.#idle = undefined;
        resolve();
      };
    });
  }

  async #handle(rd: Ready): Promise<void> {
    if (rd.softState && rd.softState.lead !== this.#lead) {
      this.#lead = rd.softState.lead;
      this.#d.hooks.onLeaderChange?.(this.#lead, rd.softState.raftState === RaftState.Leader);
      this.#reads.retryUnconfirmed();
      this.#again = true;
    }
    if (rd.snapshot) await this.#install(rd.snapshot);
    if (rd.sendBeforePersist) this.#sendAll(rd.messages);
    if (rd.hardState) this.#setHard(rd.hardState);
    const persisted = rd.entries.length > 0 || (rd.hardState && rd.mustSync) ? await this.#persistWhileApplying(rd) : NOTHING_PERSISTED;
    const appliedEarly = persisted.applied;
    if (rd.entries.length > 0) {
      this.#own.persisted(rd.entries);
      this.#storage.append(rd.entries, persisted.placed);
    }
    if (rd.hardState) this.#storage.setHardState(rd.hardState);
    if (!rd.sendBeforePersist) this.#sendAll(rd.messages);
    for (const e of rd.droppedProposals) this.#failDropped(e);
    if (rd.committedEntries.length > appliedEarly) await this.#apply(appliedEarly === 0 ? rd.committedEntries : rd.committedEntries.slice(appliedEarly));
    for (const rs of rd.readStates) this.#reads.confirmed(rs.requestCtx, rs.index);
    this.#reads.applied(this.#appliedIndex);
  }

  /**
   * Writes the Ready's entries and hard state to the WAL and, while the write and its fsync run,
   * applies the committed entries this member already holds durably: those in stable storage
   * that this Ready does not overwrite. A single member's puts then overlap one batch's fsync
   * with the previous batch's apply and replies instead of taking turns. Entries this Ready
   * itself persists are applied only after the write (`#handle`), so nothing is applied — or
   * answered — before it is on this member's disk, and the backend never gets ahead of the log.
   * Returns how many of the committed entries (a prefix) it applied, and where the WAL put the
   * entries' payloads.
   */
  async #persistWhileApplying(rd: Ready): Promise<Persisted> {
    const durableEnd = Math.min(this.#storage.lastIndex() + 1, rd.entries.length > 0 ? rd.entries[0]!.index : Infinity);
    let n = 0;
    while (n < rd.committedEntries.length && rd.committedEntries[n]!.index < durableEnd) n++;
    this.#leaderPersisting = rd.sendBeforePersist;
    const saving = this.#d.wal.save(rd.entries, rd.hardState ?? this.#hard).finally(() => (this.#leaderPersisting = false));
    if (n === 0) return saving.then((placed) => ({ applied: 0, placed }));
    const applying = this.#apply(n === rd.committedEntries.length ? rd.committedEntries : rd.committedEntries.slice(0, n));
    const [saved, applied] = await Promise.allSettled([saving, applying]);
    if (saved.status === 'rejected') throw saved.reason;
    if (applied.status === 'rejected') throw applied.reason;
    return { applied: n, placed: saved.value };
  }

  /**
   * Sends a Ready's messages and flushes them at once: a follower is waiting for the leader's
   * MsgApp (it fsyncs next), the leader for the follower's ack, a follower for the new commit
   * index, the leader for a forwarded proposal. The flush happens before the leader's own WAL
   * write and before applying, which would otherwise run first in the same turn.
   */
  #sendAll(messages: readonly Message[]): void {
    if (messages.length === 0) return;
    messages.forEach(this.#d.send);
    this.#d.flushSends?.();
  }

  /** A proposal of this member that no leader took: its proposer learns it at once. */
  #failDropped(e: Entry): void {
    let header: { readonly id: bigint; readonly memberId: bigint } | undefined;
    if (e.type === EntryType.ENTRY_CONF_CHANGE) {
      const cc = decodeConfChange(e.data);
      header = cc && cc.context.length > 0 ? ConfChangeContext.decode(cc.context).header : undefined;
    } else if (e.data.length > 0) {
      header = InternalRequest.decode(e.data).header;
    }
    if (header?.memberId === this.#d.memberId) this.#waiters.resolve(header.id, err('NoLeader'));
  }

  async #install(snapshot: NonNullable<Ready['snapshot']>): Promise<void> {
    const index = snapshot.metadata.index;
    const install = this.#installs.get(index);
    this.#installs.clear();
    if (!install) throw new Error(`snapshot at index ${index} arrived without its state image`);
    await this.#flusher.settled();
    this.#d.applier.takeBackendOps();
    // The log records the snapshot before the backend takes the image: after a crash in
    // between, the restarting member finds the marker ahead of its backend and finishes the
    // install from the received image (the backend is never ahead of the log).
    await this.#d.wal.saveSnapshot(snapshot.metadata);
    await install();
    this.#storage.applySnapshot(snapshot);
    this.#own.forgetThrough(index);
    this.#appliedIndex = index;
    this.#snapshotIndex = index;
    this.#d.hooks.onSnapshot?.(index);
  }

  #setHard(h: HardState): void {
    if (h.term !== this.#hard.term) this.#termHeader = BigInt(h.term);
    this.#hard = h;
  }

  async #apply(entries: readonly Entry[]): Promise<void> {
    for (const entry of entries) {
      if (entry.index <= this.#appliedIndex) continue;
      if (entry.type === EntryType.ENTRY_CONF_CHANGE) {
        const cc = decodeConfChange(entry.data);
        if (cc) {
          const context = cc.context.length > 0 ? ConfChangeContext.decode(cc.context) : undefined;
          this.#d.applier.applyConfChange(cc, context);
          this.#node!.applyConfChange(cc);
          this.#d.hooks.onConfChange?.(cc);
          const h = context?.header;
          if (h && h.memberId === this.#d.memberId) this.#waiters.resolve(h.id, { ok: true, value: { response: undefined } });
        }
      } else if (entry.data.length > 0) {
        const req = this.#own.take(entry) ?? decodeEntryRequest(entry.data);
        let entryDone!: () => void;
        this.#midEntry = new Promise((r) => (entryDone = r));
        let outcome: Result<Applied>;
        try {
          outcome = await this.#d.applier.apply(req, this.#d.scheduler.now());
          // Before the entry is released: a waiting flush then sees its changes and index together.
          this.#appliedIndex = entry.index;
        } finally {
          this.#midEntry = undefined;
          entryDone();
        }
        if (req.header?.memberId === this.#d.memberId && this.#waiters.has(req.header.id)) {
          if (!outcome.ok) this.#d.hooks.onProposalFailed?.();
          this.#waiters.resolve(req.header.id, outcome);
        }
      }
      this.#appliedIndex = entry.index;
    }
    this.#d.hooks.onApplied?.(this.#appliedIndex, entries.length);
    this.#flusher.schedule();
    // Back-pressure: what the backend has not taken yet waits in memory; past the bound, no more
    // is applied until a flush has written it (a stalled backend must not grow the member).
    if (this.#d.store.unflushedBytes > MAX_UNFLUSHED_BYTES) await this.flush();
    if (!this.#snapshotting && this.#appliedIndex - this.#snapshotIndex >= this.#d.snapshotCount) void this.#snapshot();
  }

  /**
   * Takes a snapshot at the applied index: the backend is synced first (it then holds
   * everything up to that index durably), the in-memory log keeps `catchUpEntries` before
   * it, the WAL records the snapshot and drops the segments it covers.
   */
  async #snapshot(): Promise<void> {
    this.#snapshotting = true;
    try {
      const index = this.#appliedIndex;
      const term = this.#storage.term(index);
      if (!term.ok) return;
      const confState = this.#node!.status().confState;
      await this.flush({ sync: true });
      const created = this.#storage.createSnapshot(index, confState, Buffer.alloc(0));
      if (!created.ok) return;
      const compactTo = index - this.#d.catchUpEntries;
      if (compactTo > this.#storage.firstIndex()) this.#storage.compact(compactTo);
      await this.#d.wal.saveSnapshot({ index, term: term.value, confState });
      // The log still holds entries from its first index on, some only in the WAL's files.
      await this.#d.wal.releaseTo(Math.min(index, this.#storage.firstIndex() - 1));
      this.#snapshotIndex = index;
      this.#d.hooks.onSnapshot?.(index);
    } catch (e) {
      this.#d.hooks.onFatal(new Error('snapshot failed', { cause: e }));
    } finally {
      this.#snapshotting = false;
    }
  }

  /** Writes applied state to the backend (see BackendFlusher). */
  flush(options?: { readonly sync?: boolean }): Promise<void> {
    return this.#flusher.flush(options);
  }

  /** One backend write: the changes and the consistent index of the same entry boundary. */
  async #writeBackend(sync: boolean): Promise<void> {
    while (this.#midEntry) await this.#midEntry;
    const started = this.#d.scheduler.now();
    await this.#d.store.flush(BigInt(this.#appliedIndex), this.#d.applier.takeBackendOps(), { sync });
    this.#d.hooks.onFlushed?.((this.#d.scheduler.now() - started) / 1000);
  }

  /** Stops on a fatal error: no more ticks, messages or requests; then the hook stops the process. */
  #halt(error: Error): void {
    this.#stopped = true;
    this.#stopTicker?.();
    this.#waiters.failAll(err('Stopped'));
    this.#reads.failAll(err('Stopped'));
    this.#d.hooks.onFatal(error);
  }

  /** Stops ticking and accepting requests, finishes the Ready in progress, flushes, fails the rest. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#stopTicker?.();
    await this.#settled();
    await this.flush();
    this.#waiters.failAll(err('Stopped'));
    this.#reads.failAll(err('Stopped'));
  }
}
