/**
 * One record's framing on disk (FORMAT.md §Record): a 16-byte header, the data, zero padding to a
 * multiple of 8 bytes.
 *
 *   0  u32 LE  data length
 *   4  u8      record type
 *   5  u8      padding length (0–7)
 *   6  u16     reserved, 0
 *   8  u32 LE  chained CRC: crc32(data) continued from the previous record's CRC; a Crc record
 *              stores the running CRC it carries into its segment instead
 *   12 u32 LE  header CRC: crc32 of bytes 0–11
 *
 * Pure functions over Buffers; no I/O.
 */
import { crc32 } from 'node:zlib';

import { isRecordType, RecordType } from './record-type.js';

export const HEADER_BYTES = 16;
export const ALIGNMENT = 8;

export function paddingFor(dataLength: number): number {
  return (ALIGNMENT - (dataLength % ALIGNMENT)) % ALIGNMENT;
}

/** Bytes a record with `dataLength` bytes of data occupies on disk. */
export function frameBytes(dataLength: number): number {
  return HEADER_BYTES + dataLength + paddingFor(dataLength);
}

/** A Write record's data: u32 LE length of the whole write (this record included), u32 zero. */
export const WRITE_DATA_BYTES = 8;
export const WRITE_RECORD_BYTES = HEADER_BYTES + WRITE_DATA_BYTES;

/**
 * Completes the frame at `offset` whose data is already at `offset + HEADER_BYTES`: writes the
 * header and zero padding. Returns the running CRC after this record.
 */
export function sealFrame(buf: Buffer, offset: number, type: RecordType, dataLength: number, previousCrc: number): number {
  const dataStart = offset + HEADER_BYTES;
  const padding = paddingFor(dataLength);
  const crc = type === RecordType.Crc ? previousCrc : crc32(buf.subarray(dataStart, dataStart + dataLength), previousCrc);
  buf.writeUInt32LE(dataLength, offset);
  buf[offset + 4] = type;
  buf[offset + 5] = padding;
  buf.writeUInt16LE(0, offset + 6);
  buf.writeUInt32LE(crc, offset + 8);
  buf.writeUInt32LE(crc32(buf.subarray(offset, offset + 12)), offset + 12);
  buf.fill(0, dataStart + dataLength, dataStart + dataLength + padding);
  return crc;
}

/** Outcome of reading the frame at an offset; everything but `ok` stops a reader there. */
export type FrameRead =
  | { readonly kind: 'ok'; readonly type: RecordType; readonly data: Buffer; readonly crc: number; readonly next: number }
  /** The offset is exactly at the limit. */
  | { readonly kind: 'end' }
  /** The header bytes (up to the limit) are all zero: unwritten or preallocated space. */
  | { readonly kind: 'zero' }
  /** Fewer than a header's bytes remain and they are not all zero. */
  | { readonly kind: 'short' }
  | { readonly kind: 'badHeader'; readonly reason: string }
  /** A valid header whose record runs past the limit. */
  | { readonly kind: 'incomplete'; readonly needed: number }
  /** A valid header whose data does not match the chained CRC. */
  | { readonly kind: 'badCrc'; readonly expected: number; readonly stored: number };

/** True when the 16 bytes at `offset` are a self-consistent header (used to look for later writes). */
export function headerIsValid(buf: Buffer, offset: number): boolean {
  if (offset + HEADER_BYTES > buf.length) return false;
  return headerProblem(buf, offset) === undefined;
}

function headerProblem(buf: Buffer, offset: number): string | undefined {
  const stored = buf.readUInt32LE(offset + 12);
  const actual = crc32(buf.subarray(offset, offset + 12));
  if (stored !== actual) return `header crc mismatch (stored ${hex(stored)}, computed ${hex(actual)})`;
  const type = buf[offset + 4] ?? 0;
  if (!isRecordType(type)) return `unknown record type ${type}`;
  const dataLength = buf.readUInt32LE(offset);
  if (buf[offset + 5] !== paddingFor(dataLength)) return `padding ${buf[offset + 5]} does not fit data length ${dataLength}`;
  if (buf.readUInt16LE(offset + 6) !== 0) return 'reserved header bytes are not zero';
  return undefined;
}

/** Reads the frame at `offset`, looking no further than `limit`, continuing the CRC chain from `seed`. */
export function readFrame(buf: Buffer, offset: number, limit: number, seed: number): FrameRead {
  if (offset >= limit) return { kind: 'end' };
  const headerEnd = Math.min(offset + HEADER_BYTES, limit);
  if (isAllZero(buf, offset, headerEnd)) return { kind: 'zero' };
  if (headerEnd - offset < HEADER_BYTES) return { kind: 'short' };
  const problem = headerProblem(buf, offset);
  if (problem !== undefined) return { kind: 'badHeader', reason: problem };
  const dataLength = buf.readUInt32LE(offset);
  const next = offset + frameBytes(dataLength);
  if (next > limit) return { kind: 'incomplete', needed: next - limit };
  const type = buf[offset + 4] as RecordType;
  const stored = buf.readUInt32LE(offset + 8);
  const data = buf.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + dataLength);
  if (type === RecordType.Crc) return { kind: 'ok', type, data, crc: stored, next };
  const expected = crc32(data, seed);
  if (expected !== stored) return { kind: 'badCrc', expected, stored };
  return { kind: 'ok', type, data, crc: stored, next };
}

/** True when buf[start, end) holds only zero bytes. */
export function isAllZero(buf: Buffer, start: number, end: number): boolean {
  let i = start;
  for (; i + 8 <= end; i += 8) if ((buf.readUInt32LE(i) | buf.readUInt32LE(i + 4)) !== 0) return false;
  for (; i < end; i++) if (buf[i] !== 0) return false;
  return true;
}

/** The offset just past the last non-zero byte in buf[start, end), or `start` if there is none. */
export function endOfNonZero(buf: Buffer, start: number, end: number): number {
  for (let i = end; i > start; i--) if (buf[i - 1] !== 0) return i;
  return start;
}

export function hex(n: number): string {
  return `0x${n.toString(16).padStart(8, '0')}`;
}
