/**
 * The member actor: the single owner of the replicated log on this member.
 *
 * Pipeline (one direction, strictly ordered):
 *   propose → queue → [batch] → WAL save (one fsync covers the batch: group commit)
 *           → apply each entry in index order → resolve the proposer's waiter
 *           → backend flush (applied state + consistent index, coalesced, not fsynced:
 *             the WAL is the durable record; on restart entries after the consistent
 *             index are applied again).
 * Saves of later batches may overlap the apply of earlier ones; applies never overlap.
 *
 * Consensus: this member is the only voter (term 1, itself leader). The replication work
 * replaces the index/term bookkeeping here with the Raft core's Ready/Advance cycle.
 */
import { InternalRequest } from '../../proto/gen/kvstore/internal.js';
import { EntryType, type Entry } from '../../proto/gen/kvstore/raft.js';
import type * as pb from '../../proto/gen/etcd/rpc.js';
import type { Applied, Applier } from '../apply/applier.js';
import { err, type Result } from '../errors/domain-error.js';
import type { MvccStore } from '../mvcc/types.js';
import type { Wal, WalContents } from '../wal/types.js';
import { ProposalWaiters } from './proposal-waiters.js';

export interface MemberHooks {
  /** After each applied batch: committed and applied index. */
  readonly onApplied?: (index: bigint, count: number) => void;
  readonly onProposalFailed?: () => void;
  /** Unrecoverable storage failure: the process must stop. */
  readonly onFatal: (error: Error) => void;
}

export interface MemberDeps {
  readonly memberId: bigint;
  readonly clusterId: bigint;
  readonly wal: Wal;
  readonly store: MvccStore;
  readonly applier: Applier;
  readonly maxRequestBytes: number;
  readonly now: () => number;
  readonly hooks: MemberHooks;
}

type Request = NonNullable<InternalRequest['request']>;

export class Member {
  readonly #d: MemberDeps;
  readonly #waiters: ProposalWaiters;
  #term = 1n;
  #lastIndex = 0n;
  #appliedIndex = 0n;
  #queue: Entry[] = [];
  #drainScheduled = false;
  #applyChain: Promise<void> = Promise.resolve();
  #flushing: Promise<void> | undefined;
  #flushAgain = false;
  #stopped = false;

  constructor(deps: MemberDeps) {
    this.#d = deps;
    this.#waiters = new ProposalWaiters(BigInt(deps.now()) << 16n);
  }

  get memberId(): bigint {
    return this.#d.memberId;
  }
  get clusterId(): bigint {
    return this.#d.clusterId;
  }
  get term(): bigint {
    return this.#term;
  }
  get committedIndex(): bigint {
    return this.#lastIndex;
  }
  get appliedIndex(): bigint {
    return this.#appliedIndex;
  }
  get leaderId(): bigint {
    return this.#stopped ? 0n : this.#d.memberId;
  }
  get pendingProposals(): number {
    return this.#waiters.size;
  }

  /** The full response header at `revision`. */
  header(revision: bigint): pb.ResponseHeader {
    return { clusterId: this.#d.clusterId, memberId: this.#d.memberId, revision, raftTerm: this.#term };
  }

  /**
   * Replays the WAL: entries after the store's consistent index are applied again.
   * Must run once, before any proposal.
   */
  async recover(contents: WalContents): Promise<void> {
    if (contents.hardState.term > this.#term) this.#term = contents.hardState.term;
    const consistent = this.#d.store.consistentIndex;
    this.#lastIndex = contents.snapshot?.index ?? 0n;
    this.#appliedIndex = consistent;
    const replay = contents.entries.filter((e) => e.index > consistent);
    if (contents.entries.length > 0) this.#lastIndex = contents.entries[contents.entries.length - 1]!.index;
    if (this.#lastIndex < consistent) this.#lastIndex = consistent;
    await this.#applyEntries(replay, false);
    await this.flush();
  }

  /** Proposes a request; resolves with its applied outcome once it is durable and applied. */
  propose(request: Request): Promise<Result<Applied>> {
    if (this.#stopped) return Promise.resolve(err('Stopped'));
    const { id, outcome } = this.#waiters.register();
    const data = InternalRequest.encode({ header: { id, memberId: this.#d.memberId }, request }).finish();
    if (data.length > this.#d.maxRequestBytes) {
      this.#waiters.resolve(id, err('RequestTooLarge'));
      return outcome;
    }
    this.#queue.push({ term: this.#term, index: 0n, type: EntryType.ENTRY_NORMAL, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) });
    if (!this.#drainScheduled) {
      this.#drainScheduled = true;
      setImmediate(() => this.#drain());
    }
    return outcome;
  }

  #drain(): void {
    this.#drainScheduled = false;
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    for (const e of batch) e.index = ++this.#lastIndex;
    const saved = this.#d.wal.save(batch, { term: this.#term, vote: this.#d.memberId, commit: this.#lastIndex });
    this.#applyChain = Promise.all([this.#applyChain, saved]).then(
      () => this.#applyEntries(batch, true),
      (e: unknown) => this.#d.hooks.onFatal(new Error('write-ahead log save failed', { cause: e })),
    );
  }

  async #applyEntries(entries: readonly Entry[], live: boolean): Promise<void> {
    for (const entry of entries) {
      if (entry.data.length > 0) {
        const req = InternalRequest.decode(entry.data);
        const outcome = await this.#d.applier.apply(req, this.#d.now());
        if (live && req.header?.memberId === this.#d.memberId) {
          if (!outcome.ok) this.#d.hooks.onProposalFailed?.();
          this.#waiters.resolve(req.header.id, outcome);
        }
      }
      this.#appliedIndex = entry.index;
    }
    if (entries.length > 0) {
      this.#d.hooks.onApplied?.(this.#appliedIndex, entries.length);
      if (live) void this.flush();
    }
  }

  /** Writes applied state to the backend; concurrent calls coalesce into at most one more flush. */
  flush(): Promise<void> {
    if (this.#flushing) {
      this.#flushAgain = true;
      return this.#flushing;
    }
    this.#flushing = (async () => {
      do {
        this.#flushAgain = false;
        await this.#d.store.flush(this.#appliedIndex, this.#d.applier.takeBackendOps());
      } while (this.#flushAgain);
    })()
      .catch((e: unknown) => this.#d.hooks.onFatal(new Error('backend flush failed', { cause: e })))
      .finally(() => {
        this.#flushing = undefined;
      });
    return this.#flushing;
  }

  /** Stops accepting proposals, finishes in-flight ones, flushes, fails the rest. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#drain();
    await this.#applyChain;
    await this.flush();
    this.#waiters.failAll(err('Stopped'));
  }
}
