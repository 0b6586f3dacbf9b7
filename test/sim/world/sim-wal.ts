/**
 * An in-memory write-ahead log implementing the Wal port (server/wal/types.ts), and the disk
 * it lives on.
 *
 * `save` writes its record at once (visible to `written`, the log as the process sees it)
 * and resolves only when a simulated fsync covering it completes, after a random latency.
 * Saves that arrive while an fsync runs wait for the next one (group commit). A crash keeps
 * only durable records — optionally plus a prefix of the unsynced ones, as a real disk may
 * have written some pages before power was lost — and the unsynced saves never resolve.
 */
import type { Entry, HardState, SnapshotMetadata, Wal, WalContents } from '../../../server/wal/types.js';
import type { Prng } from './prng.js';
import { copyEntry, LogImage, type Placed } from './log-image.js';
import type { Life, VirtualScheduler } from './virtual-scheduler.js';

interface WalRecord {
  readonly entries: readonly Entry[];
  readonly hardState: HardState | undefined;
  readonly snapshot?: SnapshotMetadata;
}

export type UnsyncedFate = 'none' | 'prefix' | 'all';

export interface DiskOptions {
  readonly fsyncMinMs: number;
  readonly fsyncMaxMs: number;
}

/** Called with each entry a save places in the written log (for log-matching checks). */
export type OnWritten = (placed: Placed) => void;

/** A member's disk: the durable log survives crashes; one SimWal at a time writes to it. */
export class SimDisk {
  readonly durable = new LogImage();
  readonly metadata: Buffer;
  /** The latest durable snapshot marker; contents hold only entries after it. */
  snapshot: SnapshotMetadata | undefined;
  #wal: SimWal | undefined;

  constructor(metadata: Buffer) {
    this.metadata = metadata;
  }

  /** Opens the WAL for a new incarnation: its contents are exactly the durable records. */
  open(sched: VirtualScheduler, life: Life, rng: Prng, options: DiskOptions, onWritten: OnWritten): { wal: SimWal; contents: WalContents } {
    if (this.#wal && this.#wal.life.alive) throw new Error('sim disk: opened twice');
    const wal = new SimWal(this, sched, life, rng, options, onWritten);
    this.#wal = wal;
    const contents: WalContents = {
      metadata: Buffer.from(this.metadata),
      hardState: { ...this.durable.hardState },
      snapshot: this.snapshot,
      entries: this.durable.entries.slice(Number(this.snapshot?.index ?? 0n)).map(copyEntry),
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
    if (rec.snapshot) this.snapshot = rec.snapshot;
    if (rec.entries.length > 0) this.durable.append(rec.entries);
    if (rec.hardState) this.durable.hardState = { ...rec.hardState };
  }
}

export class SimWal implements Wal {
  readonly written: LogImage;
  readonly life: Life;
  readonly #disk: SimDisk;
  readonly #sched: VirtualScheduler;
  readonly #rng: Prng;
  readonly #options: DiskOptions;
  readonly #onWritten: OnWritten;
  #unsynced: Array<{ rec: WalRecord; resolve: () => void }> = [];
  #syncing = false;
  #closed = false;
  /** Number of fsyncs completed (for stats). */
  fsyncs = 0;

  constructor(disk: SimDisk, sched: VirtualScheduler, life: Life, rng: Prng, options: DiskOptions, onWritten: OnWritten) {
    this.#disk = disk;
    this.#sched = sched;
    this.life = life;
    this.#rng = rng;
    this.#options = options;
    this.#onWritten = onWritten;
    this.written = disk.durable.clone();
  }

  save(entries: readonly Entry[], hardState?: HardState): Promise<void> {
    // A crashed process's writes go nowhere and are never acknowledged.
    if (!this.life.alive) return new Promise(() => undefined);
    if (this.#closed) return Promise.reject(new Error('sim wal: closed'));
    const problem = this.written.appendProblem(entries);
    if (problem !== undefined) return Promise.reject(new Error(`sim wal: invalid append: ${problem}`));
    const rec: WalRecord = { entries: entries.map(copyEntry), hardState: hardState ? { ...hardState } : undefined };
    for (const p of this.written.append(rec.entries)) this.#onWritten(p);
    if (rec.hardState) this.written.hardState = { ...rec.hardState };
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
    const latency = this.#rng.between(this.#options.fsyncMinMs, this.#options.fsyncMaxMs);
    this.#sched.at(latency, () => {
      this.#syncing = false;
      this.fsyncs++;
      for (const { rec } of batch) this.#disk.persist(rec);
      for (const { resolve } of batch) resolve();
      this.#startSync();
    }, this.life);
    // Records written after this fsync started wait for the next one; until then they are
    // only in `#unsynced`, and the in-flight batch is remembered for a crash.
    this.#inFlight = batch;
  }

  #inFlight: Array<{ rec: WalRecord; resolve: () => void }> = [];

  /**
   * Records a snapshot marker, durable with the next fsync. The simulated log keeps every
   * entry (for the checks); a marker past the end of the log is refused, as the simulation
   * does not transfer state images.
   */
  saveSnapshot(snapshot: SnapshotMetadata): Promise<void> {
    if (!this.life.alive) return new Promise(() => undefined);
    if (this.#closed) return Promise.reject(new Error('sim wal: closed'));
    if (snapshot.index > this.written.lastIndex) return Promise.reject(new Error('sim wal: snapshot beyond the log is not simulated'));
    return new Promise((resolve) => {
      this.#unsynced.push({ rec: { entries: [], hardState: undefined, snapshot: { ...snapshot } }, resolve });
      this.#startSync();
    });
  }

  releaseTo(_index: bigint): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#closed = true;
    return Promise.resolve();
  }

  /** Kills this WAL (its life must already be dead); returns how many unsynced records became durable anyway. */
  crash(rng: Prng, fate: UnsyncedFate): number {
    const pending = this.#syncing ? [...this.#inFlight, ...this.#unsynced] : this.#unsynced;
    this.#unsynced = [];
    this.#inFlight = [];
    this.#closed = true;
    const keep = fate === 'all' ? pending.length : fate === 'prefix' ? rng.int(pending.length + 1) : 0;
    for (let i = 0; i < keep; i++) this.#disk.persist(pending[i]!.rec);
    return keep;
  }
}
