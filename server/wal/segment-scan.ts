/**
 * Reads one segment's bytes into records and decides where its valid data ends (FORMAT.md §Reading).
 *
 * A segment is a Crc record followed by writes; each write starts with a Write record holding the
 * write's length. The first write is the segment head (Metadata, then optional Snapshot and State)
 * and must be intact. The WAL never has more than one write in flight, so a crash can only damage
 * the last write of the last segment, and only by leaving some of its sectors unwritten (zero) or
 * the file short. Hence:
 * - a damaged write followed by another write is corruption;
 * - a damaged last write is a torn tail when the damage looks like lost sectors (the write runs past
 *   the end of the file, or one of its 512-byte sectors is all zero), otherwise corruption;
 * - zero bytes where a write would start, up to the end of the file, are the clean end.
 * Pure: no I/O.
 */
import {
  endOfNonZero,
  headerIsValid,
  hex,
  isAllZero,
  readFrame,
  WRITE_DATA_BYTES,
  WRITE_RECORD_BYTES,
  type FrameRead,
} from './record-frame.js';
import { RecordType } from './record-type.js';

export interface ScannedRecord {
  readonly type: RecordType;
  readonly data: Buffer;
  readonly offset: number;
}

export type SegmentScan =
  | {
      readonly kind: 'ok';
      /** Metadata, Snapshot, State and Entry records in file order (Crc and Write records left out). */
      readonly records: ScannedRecord[];
      /** The running CRC the segment's Crc record carries in. */
      readonly startCrc: number;
      /** Offset just past the last intact write: where the next write goes. */
      readonly end: number;
      /** Running CRC after the last intact write. */
      readonly crc: number;
      /** Set when the last write was torn; `nonZeroEnd` is just past its last non-zero byte. */
      readonly torn?: { readonly offset: number; readonly nonZeroEnd: number };
    }
  | { readonly kind: 'corrupt'; readonly offset: number; readonly reason: string };

export const SECTOR_BYTES = 512;

const HEAD_TYPES: ReadonlySet<number> = new Set([RecordType.Metadata, RecordType.Snapshot, RecordType.State]);
const BODY_TYPES: ReadonlySet<number> = new Set([RecordType.Entry, RecordType.Snapshot, RecordType.State]);

type WriteRead =
  | { readonly kind: 'ok'; readonly records: ScannedRecord[]; readonly end: number; readonly crc: number }
  /** `writeEnd` is known when the Write record itself was intact. */
  | { readonly kind: 'bad'; readonly reason: string; readonly writeEnd: number | undefined; readonly incomplete: boolean };

export function scanSegment(buf: Buffer, isLast: boolean): SegmentScan {
  const first = readFrame(buf, 0, buf.length, 0);
  if (first.kind !== 'ok' || first.type !== RecordType.Crc) {
    return { kind: 'corrupt', offset: 0, reason: `segment does not start with a crc record (${describe(first)})` };
  }
  const records: ScannedRecord[] = [];
  let offset = first.next;
  let crc = first.crc;
  for (let n = 0; ; n++) {
    const head = n === 0;
    if (!head && isAllZero(buf, offset, buf.length)) return { kind: 'ok', records, startCrc: first.crc, end: offset, crc };
    const w = readWrite(buf, offset, crc, head ? HEAD_TYPES : BODY_TYPES);
    if (w.kind === 'ok') {
      if (head && w.records[0]?.type !== RecordType.Metadata) {
        return { kind: 'corrupt', offset, reason: 'segment head does not start with a metadata record' };
      }
      for (const r of w.records) records.push(r);
      offset = w.end;
      crc = w.crc;
      continue;
    }
    const where = `write at offset ${offset}: ${w.reason}`;
    if (head) return { kind: 'corrupt', offset, reason: `segment head is damaged (${where})` };
    if (!isLast) return { kind: 'corrupt', offset, reason: `damaged ${where}, in a segment that is not the last` };
    const later = laterWrite(buf, offset, w.writeEnd);
    if (later !== undefined) return { kind: 'corrupt', offset, reason: `damaged ${where}; a later write follows at offset ${later}` };
    // The damage must look like lost sectors: within the write, or within its Write record when its length is unreadable.
    const damaged = Math.min(w.writeEnd ?? offset + WRITE_RECORD_BYTES, buf.length);
    if (!w.incomplete && !hasZeroSector(buf, offset, damaged)) {
      return { kind: 'corrupt', offset, reason: `damaged ${where}; the last write is complete, so this is not a torn write` };
    }
    return { kind: 'ok', records, startCrc: first.crc, end: offset, crc, torn: { offset, nonZeroEnd: endOfNonZero(buf, offset, buf.length) } };
  }
}

/** Reads the write starting at `offset`: its Write record, then records of `allowed` types filling exactly its length. */
function readWrite(buf: Buffer, offset: number, seed: number, allowed: ReadonlySet<number>): WriteRead {
  const w = readFrame(buf, offset, buf.length, seed);
  if (w.kind !== 'ok') {
    const incomplete = w.kind === 'short' || w.kind === 'incomplete';
    return { kind: 'bad', reason: `write record: ${describe(w)}`, writeEnd: undefined, incomplete };
  }
  if (w.type !== RecordType.Write || w.data.length !== WRITE_DATA_BYTES) {
    return { kind: 'bad', reason: `expected a write record, found type ${w.type} with ${w.data.length} data bytes`, writeEnd: undefined, incomplete: false };
  }
  const length = w.data.readUInt32LE(0);
  if (length < WRITE_RECORD_BYTES || length % 8 !== 0 || w.data.readUInt32LE(4) !== 0) {
    return { kind: 'bad', reason: `write record holds an impossible length ${length}`, writeEnd: undefined, incomplete: false };
  }
  const writeEnd = offset + length;
  const limit = Math.min(writeEnd, buf.length);
  const records: ScannedRecord[] = [];
  let at = w.next;
  let crc = w.crc;
  while (at < writeEnd) {
    const r = readFrame(buf, at, limit, crc);
    if (r.kind !== 'ok') {
      return { kind: 'bad', reason: `record at offset ${at}: ${describe(r)}`, writeEnd, incomplete: writeEnd > buf.length };
    }
    if (!allowed.has(r.type)) return { kind: 'bad', reason: `record at offset ${at} has unexpected type ${r.type}`, writeEnd, incomplete: false };
    records.push({ type: r.type, data: r.data, offset: at });
    at = r.next;
    crc = r.crc;
  }
  return { kind: 'ok', records, end: writeEnd, crc };
}

/** Offset of evidence that a write began after the damaged one at `offset`, if any. */
function laterWrite(buf: Buffer, offset: number, writeEnd: number | undefined): number | undefined {
  if (writeEnd !== undefined) {
    return writeEnd >= buf.length || isAllZero(buf, writeEnd, buf.length) ? undefined : writeEnd;
  }
  for (let at = offset + 8; at + WRITE_RECORD_BYTES <= buf.length; at += 8) {
    if (buf[at + 4] === RecordType.Write && buf.readUInt32LE(at) === WRITE_DATA_BYTES && headerIsValid(buf, at)) return at;
  }
  return undefined;
}

/** True when some 512-byte sector's part inside [start, end) is all zero: the mark of a lost sector. */
function hasZeroSector(buf: Buffer, start: number, end: number): boolean {
  for (let s = start - (start % SECTOR_BYTES); s < end; s += SECTOR_BYTES) {
    const from = Math.max(s, start);
    const to = Math.min(s + SECTOR_BYTES, end);
    if (from < to && isAllZero(buf, from, to)) return true;
  }
  return false;
}

function describe(r: FrameRead): string {
  switch (r.kind) {
    case 'ok':
      return `record of type ${r.type}`;
    case 'end':
      return 'end of file';
    case 'zero':
      return 'zero bytes';
    case 'short':
      return 'file ends inside a record header';
    case 'badHeader':
      return r.reason;
    case 'incomplete':
      return `record runs ${r.needed} bytes past the end`;
    case 'badCrc':
      return `crc mismatch (stored ${hex(r.stored)}, computed ${hex(r.expected)})`;
  }
}
