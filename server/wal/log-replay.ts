/**
 * Rebuilds the log from scanned records, oldest segment first (FORMAT.md §Reading). Pure.
 *
 * - Metadata: the first one wins; every segment head repeats it and a different one is corruption.
 * - State: the latest replaces the hard state.
 * - Snapshot: the latest becomes the marker; entries at or before it are dropped.
 * - Entry: an index already present replaces the tail from that index; a gap is corruption.
 * Old segments may have been released, so the oldest segment read can hold a stale marker followed
 * by entries well after it: the position is anchored by the first entry read, and `finishReplay`
 * checks that the entries kept start right after the final marker.
 * `maxIndex` reports the highest entry index met in the records of one `replaySegment` call, which
 * `releaseTo` uses to decide which segment files hold only old entries.
 */
import * as wire from '../../proto/gen/kvstore/raft.js';
import type { Entry, HardState, SnapshotMetadata } from '../raft/log-types.js';
import type { LoggedEntry } from './types.js';
import { indexFromWire } from './proto-codec.js';
import { afterAppend, afterSnapshot, appendProblem, type LogPosition } from './log-position.js';
import { readEntry } from './entry-reader.js';
import { ProtoReader } from './proto-reader.js';
import { HEADER_BYTES } from './record-frame.js';
import { RecordType } from './record-type.js';
import type { ScannedRecord } from './segment-scan.js';

export interface ReplayState {
  metadata: Buffer | undefined;
  hardState: HardState;
  snapshot: SnapshotMetadata | undefined;
  entries: LoggedEntry[];
  position: LogPosition;
  /** False until the first entry is read; markers read before it do not constrain that entry. */
  anchored: boolean;
  /** `files`: entries keep where their payload lies (`at`) instead of the payload itself. */
  readonly payloads: 'memory' | 'files';
  /** The segment whose records are being replayed (`at.segment`). */
  segment: string;
}

export function emptyHardState(): HardState {
  return { term: 0, vote: 0n, commit: 0 };
}

export function newReplay(payloads: 'memory' | 'files' = 'memory'): ReplayState {
  return { metadata: undefined, hardState: emptyHardState(), snapshot: undefined, entries: [], position: { last: undefined }, anchored: false, payloads, segment: '' };
}

export type ReplayOutcome =
  | { readonly kind: 'ok'; readonly maxIndex: number | undefined }
  | { readonly kind: 'corrupt'; readonly offset: number; readonly reason: string };

/** Applies the records of segment file `segment` to `state` (mutated in place). */
export function replaySegment(state: ReplayState, records: readonly ScannedRecord[], segment = ''): ReplayOutcome {
  state.segment = segment;
  let maxIndex: number | undefined;
  for (const rec of records) {
    let problem: string | undefined;
    try {
      problem = applyRecord(state, rec);
    } catch (e) {
      problem = `record of type ${rec.type} does not decode: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (problem !== undefined) return { kind: 'corrupt', offset: rec.offset, reason: problem };
    if (rec.type === RecordType.Entry) {
      const last = state.entries[state.entries.length - 1]?.index;
      if (last !== undefined && (maxIndex === undefined || last > maxIndex)) maxIndex = last;
    }
  }
  return { kind: 'ok', maxIndex };
}

function applyRecord(state: ReplayState, rec: ScannedRecord): string | undefined {
  switch (rec.type) {
    case RecordType.Metadata:
      if (state.metadata === undefined) state.metadata = Buffer.from(rec.data);
      else if (!state.metadata.equals(rec.data)) return 'metadata differs from the metadata of earlier segments';
      return undefined;
    case RecordType.State:
      state.hardState = hardStateFromWire(wire.HardState.decode(rec.data));
      return undefined;
    case RecordType.Snapshot: {
      const snap = snapshotFromWire(wire.SnapshotMetadata.decode(rec.data));
      state.snapshot = snap;
      dropThrough(state.entries, snap.index);
      if (state.anchored) state.position = afterSnapshot(state.position, snap.index);
      return undefined;
    }
    case RecordType.Entry: {
      const e = loggedEntry(state, rec, readEntry(new ProtoReader(rec.data)));
      const problem = appendProblem(state.position, [e]);
      if (problem !== undefined) return problem;
      replaceTail(state.entries, e);
      state.position = afterAppend(state.position, e.index);
      state.anchored = true;
      return undefined;
    }
    default:
      return `record type ${rec.type} does not belong in a write`;
  }
}

const NO_DATA = Buffer.alloc(0);

/**
 * With `files`, payloads up to this size are kept (copied out of the segment): they cost no more
 * than their location would, and readers of the log at start (the cluster-version history) find
 * the small entries they look for without reading the files.
 */
export const SMALL_PAYLOAD_BYTES = 64;

/**
 * The entry as the replay keeps it. With `files`, a payload larger than SMALL_PAYLOAD_BYTES is
 * dropped for where it lies in the segment: it is the Entry message's last field (as this log
 * writes it), so it ends where the record's data ends; a payload that does not is kept.
 */
function loggedEntry(state: ReplayState, rec: ScannedRecord, e: Entry): LoggedEntry {
  const n = e.data.length;
  // `readEntry` hands the payload out as a view into the record (a view would keep the whole
  // segment alive: what is kept is copied); where it ends is known without reading it.
  const endsRecord = e.data.byteOffset + n === rec.data.byteOffset + rec.data.length;
  if (state.payloads === 'memory' || n <= SMALL_PAYLOAD_BYTES || !endsRecord) return n === 0 ? e : { ...e, data: Buffer.from(e.data) };
  return { ...e, data: NO_DATA, at: { segment: state.segment, offset: rec.offset + HEADER_BYTES + rec.data.length - n, bytes: n } };
}

/** Appends `e`, first dropping every entry at or after its index. `entries` are consecutive. */
export function replaceTail<E extends Entry>(entries: E[], e: E): void {
  const first = entries[0]?.index;
  if (first !== undefined && e.index <= first + entries.length - 1) {
    entries.length = e.index < first ? 0 : e.index - first;
  }
  entries.push(e);
}

/** Removes the entries with index ≤ `index` from the front. */
function dropThrough(entries: Entry[], index: number): void {
  const first = entries[0]?.index;
  if (first === undefined || index < first) return;
  entries.splice(0, Math.min(entries.length, index - first + 1));
}

export type ReplayResult =
  | { readonly kind: 'ok'; readonly entries: LoggedEntry[]; readonly position: LogPosition }
  | { readonly kind: 'corrupt'; readonly reason: string };

/**
 * The entries after the final snapshot marker (entries saved after a marker may still reach below
 * it) and the position the writer continues from.
 */
export function finishReplay(state: ReplayState): ReplayResult {
  const snap = state.snapshot;
  const position = snap === undefined ? state.position : afterSnapshot(state.position, snap.index);
  if (snap === undefined) return { kind: 'ok', entries: state.entries, position };
  const firstKept = state.entries.findIndex((e) => e.index > snap.index);
  const entries = firstKept < 0 ? [] : firstKept === 0 ? state.entries : state.entries.slice(firstKept);
  const first = entries[0];
  if (first !== undefined && first.index > snap.index + 1) {
    return { kind: 'corrupt', reason: `entries resume at ${first.index} but the snapshot marker is at ${snap.index}: entries are missing` };
  }
  return { kind: 'ok', entries, position };
}

/** Decoded records → the in-memory shapes (terms and indexes as numbers; RangeError above 2^53). */
export function hardStateFromWire(h: wire.HardState): HardState {
  return { term: indexFromWire(h.term, 'hard state term'), vote: h.vote, commit: indexFromWire(h.commit, 'hard state commit') };
}

export function snapshotFromWire(s: wire.SnapshotMetadata): SnapshotMetadata {
  return { index: indexFromWire(s.index, 'snapshot index'), term: indexFromWire(s.term, 'snapshot term'), confState: s.confState };
}
