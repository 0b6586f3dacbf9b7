/**
 * An in-memory write-ahead log implementing the Wal port (server/wal/types.ts), and the disk
 * it lives on.
 *
 * `save` and `saveSnapshot` write their record at once (visible in `written`, the log as
 * the process sees it) and resolve only when a simulated fsync covering it completes, after
 * a random latency. Records that arrive while an fsync runs wait for the next one (group
 * commit). A crash keeps only durable records — plus a prefix of the unsynced ones if a
 * power loss came after some pages reached the disk, or all of them if only the process
 * died — and the unsynced saves never resolve. Contents are replayed as the file WAL
 * replays (server/wal/log-replay.ts): the latest hard state, the latest snapshot marker,
 * the entries after it; an entry at an index already present replaces the tail from there.
 */
import type { Entry, HardState, PayloadAt, SnapshotMetadata, Wal, WalContents } from '../../../server/wal/types.js';
import type { Prng } from './prng.js';
import { copyEntry, LogImage, type Placed } from './log-image.js';
import type { Life, VirtualScheduler } from './virtual-scheduler.js';

interface WalRecord {
  readonly entries: readonly Entry[];
  readonly hardState: HardState | undefined;
  readonly snapshot?: { readonly meta: SnapshotMetadata; readonly chain: string };
}

export type UnsyncedFate = 'none' | 'prefix' | 'all';

export interface DiskOptions {
  readonly fsyncMinMs: number;
  readonly fsyncMaxMs: number;
}

export interface WalHooks {
  /** Called with each entry a save places in the written log (for log-matching checks). */
  readonly onWritten: (placed: Placed) => void;
  /** The committed log's chain value at `index`, if known (the prefix a snapshot holds). */
  readonly committedChainAt: (index: number) => string | undefined;
}

/** A member's disk: the durable log survives crashes; one SimWal at a time writes to it. */
export class SimDisk {
  readonly durable = new LogImage();
  readonly metadata: Buffer;
  /** The latest durable snapshot marker. */
  snapshot: SnapshotMetadata | undefined;
  #wal: SimWal | undefined;

  constructor(metadata: Buffer) {
    this.metadata = metadata;
  }

  /** Opens the WAL for a new incarnation: its contents are exactly the durable records. */
  open(sched: VirtualScheduler, life: Life, rng: Prng, options: DiskOptions, hooks: WalHooks): { wal: SimWal; contents: WalContents } {
    if (this.#wal && this.#wal.life.alive) throw new Error('sim disk: opened twice');
    const wal = new SimWal(this, sched, life, rng, options, hooks);
    this.#wal = wal;
    const contents: WalContents = {
      metadata: Buffer.from(this.metadata),
      hardState: { ...this.durable.hardState },
      snapshot: this.snapshot,
      entries: this.durable.entries.map(copyEntry),
    };
    return { wal, contents };
  }

  /**
   * The writing process is gone. Unsynced records: 'none' are kept (power loss, page cache
   * lost), a random 'prefix' (power loss after some pages reached the disk), or 'all'
   * (the process was killed; the OS still writes its page cache out).
   */
  crash(rng: Prng, keep: UnsyncedFate): number {
    const wal = this.#wal;
    this.#wal = undefined;
    if (!wal) return 0;
    return wal.crash(rng, keep);
  }

  /** Makes a record durable (fsync done, or a torn write that reached the platter). */
  persist(rec: WalRecord): void {
    if (rec.snapshot) {
      this.durable.snapshot(rec.snapshot.meta.index, rec.snapshot.chain);
      this.snapshot = rec.snapshot.meta;
    }
    if (rec.entries.length > 0) this.durable.append(rec.entries);
    if (rec.hardState) this.durable.hardState = { ...rec.hardState };
  }
}

interface Pending {
  readonly rec: WalRecord;
  readonly resolve: () => void;
}

export class SimWal implements Wal {
  readonly written: LogImage;
  readonly life: Life;
  readonly #disk: SimDisk;
  readonly #sched: VirtualScheduler;
  readonly #rng: Prng;
  readonly #options: DiskOptions;
  readonly #hooks: WalHooks;
  /** Records written, waiting for an fsync to start. */
  #unsynced: Pending[] = [];
  /** Records covered by the fsync in progress. */
  #inFlight: Pending[] = [];
  #syncing = false;
  #closed = false;
  /** Payloads saved by this life, by chain value (what `readPayload` reads back). */
  readonly #payloads = new Map<string, Buffer>();

  constructor(disk: SimDisk, sched: VirtualScheduler, life: Life, rng: Prng, options: DiskOptions, hooks: WalHooks) {
    this.#disk = disk;
    this.#sched = sched;
    this.life = life;
    this.#rng = rng;
    this.#options = options;
    this.#hooks = hooks;
    this.written = disk.durable.clone();
  }

  /**
   * Resolves with where each payload lies: in the simulation, the entry's index (`offset`) and
   * its chain value (`segment`), so that `readPayload` can tell a stale location from a live one.
   */
  save(entries: readonly Entry[], hardState?: HardState): Promise<PayloadAt[]> {
    // A crashed process's writes go nowhere and are never acknowledged.
    if (!this.life.alive) return new Promise(() => undefined);
    if (this.#closed) return Promise.reject(new Error('sim wal: closed'));
    const problem = this.written.appendProblem(entries);
    if (problem !== undefined) return Promise.reject(new Error(`sim wal: invalid append: ${problem}`));
    const rec: WalRecord = { entries: entries.map(copyEntry), hardState: hardState ? { ...hardState } : undefined };
    for (const p of this.written.append(rec.entries)) this.#hooks.onWritten(p);
    if (rec.hardState) this.written.hardState = { ...rec.hardState };
    const placed = rec.entries.map((e) => {
      const chain = this.written.chainAt(e.index)!;
      this.#payloads.set(chain, e.data);
      return { segment: chain, offset: e.index, bytes: e.data.length };
    });
    return this.#write(rec).then(() => placed);
  }

  /**
   * The payload saved at `at`. Throws when it was never saved by this life, or when the log
   * still reaches its index but holds another entry there (a location the storage should have
   * forgotten when the tail was replaced).
   */
  readPayload(at: PayloadAt): Buffer {
    const data = this.#payloads.get(at.segment);
    const live = this.written.chainAt(at.offset);
    if (data === undefined || (at.offset > this.written.base && live !== undefined && live !== at.segment)) {
      throw new Error(`sim wal: entry ${at.offset} is not in the log as written`);
    }
    return Buffer.from(data);
  }

  /** Records a snapshot marker: the log (written, then durable) starts after its index. */
  saveSnapshot(snapshot: SnapshotMetadata): Promise<void> {
    if (!this.life.alive) return new Promise(() => undefined);
    if (this.#closed) return Promise.reject(new Error('sim wal: closed'));
    const chain = this.#hooks.committedChainAt(snapshot.index) ?? this.written.chainAt(snapshot.index);
    if (chain === undefined) return Promise.reject(new Error(`sim wal: snapshot at ${snapshot.index} of a prefix nobody applied`));
    this.written.snapshot(snapshot.index, chain);
    return this.#write({ entries: [], hardState: undefined, snapshot: { meta: { ...snapshot }, chain } });
  }

  releaseTo(_index: number): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#closed = true;
    return Promise.resolve();
  }

  #write(rec: WalRecord): Promise<void> {
    return new Promise((resolve) => {
      this.#unsynced.push({ rec, resolve });
      this.#startSync();
    });
  }

  #startSync(): void {
    if (this.#syncing || this.#unsynced.length === 0) return;
    this.#syncing = true;
    const batch = this.#unsynced;
    this.#unsynced = [];
    this.#inFlight = batch;
    const latency = this.#rng.between(this.#options.fsyncMinMs, this.#options.fsyncMaxMs);
    this.#sched.at(
      latency,
      () => {
        this.#syncing = false;
        this.#inFlight = [];
        for (const { rec } of batch) this.#disk.persist(rec);
        for (const { resolve } of batch) resolve();
        this.#startSync();
      },
      this.life,
    );
  }

  /** Kills this WAL (its life must already be dead); returns how many unsynced records became durable anyway. */
  crash(rng: Prng, fate: UnsyncedFate): number {
    const pending = [...this.#inFlight, ...this.#unsynced];
    this.#unsynced = [];
    this.#inFlight = [];
    this.#closed = true;
    const keep = fate === 'all' ? pending.length : fate === 'prefix' ? rng.int(pending.length + 1) : 0;
    for (let i = 0; i < keep; i++) this.#disk.persist(pending[i]!.rec);
    return keep;
  }
}
