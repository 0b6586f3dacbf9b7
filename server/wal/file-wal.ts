/**
 * The Wal on disk: one writer loop with group commit, segment rotation and release.
 *
 * Ordering and durability: calls are queued in call order; the loop takes everything queued,
 * encodes it as ONE write into a reused buffer, appends it durably (one O_DSYNC write or write +
 * fdatasync), then resolves those calls. Calls made meanwhile wait for the next write, so one fsync
 * covers all of them. A failed write rejects the waiting calls and every later one (the log on disk
 * may end in a partial write, which reopening repairs).
 *
 * Rotation: before a write, if the open segment's data has reached `segmentBytes`, a new segment is
 * created (head repeating metadata, latest snapshot marker and hard state) and the old one finished.
 * Release: deletes the oldest segments whose entries are all ≤ min(index, latest snapshot index),
 * never the open one.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAppend, afterSnapshot, appendProblem, type LogPosition } from './log-position.js';
import { segmentName } from './segment-name.js';
import { syncDir } from '../storage/sync-dir.js';
import { SegmentFile, type SegmentFileOptions } from './segment-file.js';
import { SegmentReader } from './segment-reader.js';
import type { Entry, HardState, PayloadAt, SnapshotMetadata, Wal } from './types.js';
import { WalError } from './wal-error.js';
import { encodeSegmentHead, encodeWrite, saveOp, snapshotOp, writeBytes, type WalOp } from './write-encoder.js';

/** The encode buffer is reused across writes up to this size; a larger one is dropped after its write. */
const MAX_KEPT_SCRATCH = 4 * 1024 * 1024;

/** A segment file of the log, oldest first; `maxIndex` is the highest entry index written into it. */
export interface SegmentInfo {
  readonly name: string;
  readonly seq: bigint;
  maxIndex: number | undefined;
}

/** Everything the writer needs to continue a log that was just created or read. */
export interface WalState {
  readonly dir: string;
  readonly metadata: Buffer;
  readonly segments: SegmentInfo[];
  readonly file: SegmentFile;
  readonly crc: number;
  readonly position: LogPosition;
  readonly hardState: HardState;
  readonly snapshot: SnapshotMetadata | undefined;
}

export interface FileWalOptions extends SegmentFileOptions {
  readonly segmentBytes: number;
  readonly onWriteBytes: ((n: number) => void) | undefined;
}

interface Waiter {
  readonly op: WalOp;
  readonly resolve: (placed: PayloadAt[]) => void;
  readonly reject: (e: Error) => void;
}

const NONE_PLACED: PayloadAt[] = [];

export class FileWal implements Wal {
  private readonly dir: string;
  private readonly metadata: Buffer;
  private readonly segments: SegmentInfo[];
  private file: SegmentFile;
  private crc: number;
  /** Position after every accepted call (including queued ones): validates new calls. */
  private accepted: LogPosition;
  /** Latest written hard state and marker, repeated in each new segment head. */
  private hardState: HardState;
  private snapshot: SnapshotMetadata | undefined;
  private writtenLast: number | undefined;
  private queue: Waiter[] = [];
  private writing: Promise<void> | undefined;
  private releasing: Promise<void> = Promise.resolve();
  private scratch: Buffer = Buffer.alloc(0);
  private failure: WalError | undefined;
  private closed = false;
  private readonly reader: SegmentReader;
  /** Reused by each write: where its entries' payloads went in the scratch buffer. */
  private readonly payloadOffsets: number[] = [];

  constructor(
    state: WalState,
    private readonly options: FileWalOptions,
  ) {
    this.dir = state.dir;
    this.metadata = state.metadata;
    this.segments = state.segments;
    this.file = state.file;
    this.crc = state.crc;
    this.accepted = state.position;
    this.hardState = state.hardState;
    this.snapshot = state.snapshot;
    this.writtenLast = state.position.last;
    this.reader = new SegmentReader(state.dir);
  }

  save(entries: readonly Entry[], hardState?: HardState): Promise<PayloadAt[]> {
    const problem = appendProblem(this.accepted, entries);
    if (problem !== undefined) return Promise.reject(new WalError({ kind: 'InvalidAppend', reason: problem }));
    let op: WalOp;
    try {
      op = saveOp([...entries], hardState === undefined ? undefined : { ...hardState });
    } catch (e) {
      return Promise.reject(new WalError({ kind: 'InvalidAppend', reason: e instanceof Error ? e.message : String(e) }, { cause: e }));
    }
    const last = entries[entries.length - 1];
    return this.enqueue(op, () => {
      if (last !== undefined) this.accepted = afterAppend(this.accepted, last.index);
    });
  }

  async saveSnapshot(snapshot: SnapshotMetadata): Promise<void> {
    await this.enqueue(snapshotOp(snapshot), () => {
      this.accepted = afterSnapshot(this.accepted, snapshot.index);
    });
  }

  readPayload(at: PayloadAt): Buffer {
    if (!this.segments.some((s) => s.name === at.segment)) throw new Error(`wal: segment ${at.segment} is not part of the log`);
    return this.reader.read(at);
  }

  releaseTo(index: number): Promise<void> {
    const run = this.releasing.then(() => this.release(index));
    this.releasing = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writing;
    await this.releasing;
    this.reader.closeAll();
    await this.file.close();
  }

  private enqueue(op: WalOp, onAccepted: () => void): Promise<PayloadAt[]> {
    if (this.closed) return Promise.reject(new WalError({ kind: 'Closed' }));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    onAccepted();
    return new Promise<PayloadAt[]>((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      this.writing ??= this.drain();
    });
  }

  /**
   * The writer loop: runs while calls are queued; at most one write is in flight. It starts one
   * microtask late so that calls made in the same turn (e.g. by every caller a write just resolved)
   * share the first write.
   */
  private async drain(): Promise<void> {
    await Promise.resolve();
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      let placed: PayloadAt[][];
      try {
        placed = await this.write(batch.map((w) => w.op));
      } catch (e) {
        this.failure = new WalError({ kind: 'WriteFailed', reason: e instanceof Error ? e.message : String(e) }, { cause: e });
        for (const w of [...batch, ...this.queue]) w.reject(this.failure);
        this.queue = [];
        break;
      }
      for (const [i, w] of batch.entries()) w.resolve(placed[i] ?? NONE_PLACED);
    }
    this.writing = undefined;
  }

  /** Writes `ops` as one durable write; returns, op by op, where their entries' payloads went. */
  private async write(ops: WalOp[]): Promise<PayloadAt[][]> {
    const length = writeBytes(ops);
    let firstIndex: number | undefined;
    let maxIndex: number | undefined;
    let hasRecords = false;
    for (const op of ops) {
      if (op.bytes > 0) hasRecords = true;
      if (op.kind !== 'save') continue;
      for (const e of op.entries) {
        firstIndex ??= e.index;
        if (maxIndex === undefined || e.index > maxIndex) maxIndex = e.index;
      }
    }
    if (!hasRecords) return [];
    if (this.file.dataEnd >= this.options.segmentBytes) await this.rotate(firstIndex ?? (this.writtenLast ?? 0) + 1);
    if (this.scratch.length < length) this.scratch = Buffer.allocUnsafe(Math.max(length, Math.min(this.scratch.length * 2, MAX_KEPT_SCRATCH)));
    const offsets = this.payloadOffsets;
    offsets.length = 0;
    const crc = encodeWrite(this.scratch, 0, this.crc, ops, offsets);
    const base = this.file.dataEnd;
    const segment = this.segments[this.segments.length - 1]!.name;
    await this.file.append(this.scratch.subarray(0, length));
    if (this.scratch.length > MAX_KEPT_SCRATCH) this.scratch = Buffer.alloc(0);
    this.crc = crc;
    this.options.onWriteBytes?.(length);
    this.noteWritten(ops, maxIndex);
    return placements(ops, offsets, segment, base);
  }

  private noteWritten(ops: readonly WalOp[], maxIndex: number | undefined): void {
    for (const op of ops) {
      if (op.kind === 'save') {
        const last = op.entries[op.entries.length - 1];
        if (last !== undefined) this.writtenLast = last.index;
        if (op.hardState !== undefined) this.hardState = op.hardState;
      } else if (op.kind === 'snapshot') {
        this.snapshot = op.snapshot;
        if (this.writtenLast === undefined || this.snapshot.index > this.writtenLast) this.writtenLast = this.snapshot.index;
      }
    }
    const current = this.segments[this.segments.length - 1];
    if (current !== undefined && maxIndex !== undefined && (current.maxIndex === undefined || maxIndex > current.maxIndex)) {
      current.maxIndex = maxIndex;
    }
  }

  private async rotate(firstIndex: number): Promise<void> {
    const previous = this.segments[this.segments.length - 1];
    const seq = previous === undefined ? 0n : previous.seq + 1n;
    const name = segmentName(seq, BigInt(firstIndex));
    const head = encodeSegmentHead(this.crc, this.metadata, this.snapshot, this.hardState);
    const next = await SegmentFile.create(this.dir, name, head.bytes, this.options);
    const old = this.file;
    this.file = next;
    this.crc = head.crc;
    this.segments.push({ name, seq, maxIndex: undefined });
    await old.finish();
  }

  private async release(index: number): Promise<void> {
    const limit = this.snapshot === undefined ? undefined : index < this.snapshot.index ? index : this.snapshot.index;
    if (limit === undefined) return;
    let removed = 0;
    while (this.segments.length > 1) {
      const oldest = this.segments[0];
      if (oldest === undefined || (oldest.maxIndex !== undefined && oldest.maxIndex > limit)) break;
      this.segments.shift();
      this.reader.forget(oldest.name);
      await rm(join(this.dir, oldest.name));
      removed++;
    }
    if (removed > 0) await syncDir(this.dir);
  }
}

/** Per op, the file position of each of its entries' payloads (`offsets` are in the write's buffer, which lands at `base`). */
function placements(ops: readonly WalOp[], offsets: readonly number[], segment: string, base: number): PayloadAt[][] {
  let k = 0;
  return ops.map((op) => {
    if (op.kind !== 'save' || op.entries.length === 0) return NONE_PLACED;
    return op.entries.map((e) => ({ segment, offset: base + offsets[k++]!, bytes: e.data.length }));
  });
}
