/**
 * Allocation-free protobuf encoding of the two messages the WAL writes on its hot path, Entry and
 * HardState, straight into a batch buffer. The bytes are identical to the generated
 * `Entry.encode(e).finish()` / `HardState.encode(h).finish()` (a unit test checks this); reading
 * uses the generated decoders.
 *
 * Each message has a `...Bytes(m)` size function and a `write...(buf, offset, m)` that returns the
 * offset after the message. Values outside uint64 throw, as the generated encoders do. The
 * varint helpers are shared with the peer message encoder (member/message-codec.ts).
 */
import type { Entry, HardState } from './types.js';

const TWO_POW_64 = 1n << 64n;

function checkUint64(v: bigint, field: string): void {
  if (v < 0n || v >= TWO_POW_64) throw new RangeError(`${field} ${v} does not fit uint64`);
}

/** Varint size of a uint64; values above 32 bits cost two bigint operations, not one per 7 bits. */
function varintBytes(v: bigint): number {
  if (v <= 0xffffffffn) return smallVarintBytes(Number(v));
  const bits = 64 - Math.clz32(Number(v >> 32n));
  return Math.ceil(bits / 7);
}

export function smallVarintBytes(n: number): number {
  let bytes = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    bytes++;
  }
  return bytes;
}

export function writeVarint(buf: Buffer, offset: number, v: bigint): number {
  if (v <= 0xffffffffn) return writeSmallVarint(buf, offset, Number(v));
  // Two 32-bit halves as numbers: the low 28 bits go out first, then the rest as a number.
  const hi = Number(v >> 32n);
  let lo = Number(v & 0xffffffffn);
  for (let i = 0; i < 4; i++) {
    buf[offset++] = (lo & 0x7f) | 0x80;
    lo >>>= 7;
  }
  // 4 bits of lo remain; join them with hi (at most 36 bits: exact as a number).
  let rest = hi * 16 + lo;
  while (rest >= 0x80) {
    buf[offset++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  buf[offset++] = rest;
  return offset;
}

export function writeSmallVarint(buf: Buffer, offset: number, n: number): number {
  while (n >= 0x80) {
    buf[offset++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 0x80);
  }
  buf[offset++] = n;
  return offset;
}

/** int32 fields encode negative values as 10-byte two's-complement varints. */
function int32AsUint64(n: number): bigint {
  return BigInt.asUintN(64, BigInt(n));
}

/** Writes a uint64 field (tag, varint); nothing when `v` is 0, as proto3 encoders omit it. */
export function writeUint64Field(buf: Buffer, offset: number, field: number, v: bigint): number {
  if (v === 0n) return offset;
  buf[offset++] = field << 3;
  return writeVarint(buf, offset, v);
}

export function uint64FieldBytes(v: bigint): number {
  return v === 0n ? 0 : 1 + varintBytes(v);
}

export function entryBytes(e: Entry): number {
  checkUint64(e.term, 'entry term');
  checkUint64(e.index, 'entry index');
  let n = uint64FieldBytes(e.term) + uint64FieldBytes(e.index);
  if (e.type !== 0) n += 1 + (e.type > 0 ? smallVarintBytes(e.type) : varintBytes(int32AsUint64(e.type)));
  if (e.data.length !== 0) n += 1 + smallVarintBytes(e.data.length) + e.data.length;
  return n;
}

export function writeEntry(buf: Buffer, offset: number, e: Entry): number {
  if (e.term !== 0n) {
    buf[offset++] = 0x08;
    offset = writeVarint(buf, offset, e.term);
  }
  if (e.index !== 0n) {
    buf[offset++] = 0x10;
    offset = writeVarint(buf, offset, e.index);
  }
  if (e.type !== 0) {
    buf[offset++] = 0x18;
    offset = e.type > 0 ? writeSmallVarint(buf, offset, e.type) : writeVarint(buf, offset, int32AsUint64(e.type));
  }
  if (e.data.length !== 0) {
    buf[offset++] = 0x22;
    offset = writeSmallVarint(buf, offset, e.data.length);
    offset += e.data.copy(buf, offset);
  }
  return offset;
}

export function hardStateBytes(h: HardState): number {
  checkUint64(h.term, 'hard state term');
  checkUint64(h.vote, 'hard state vote');
  checkUint64(h.commit, 'hard state commit');
  return uint64FieldBytes(h.term) + uint64FieldBytes(h.vote) + uint64FieldBytes(h.commit);
}

export function writeHardState(buf: Buffer, offset: number, h: HardState): number {
  if (h.term !== 0n) {
    buf[offset++] = 0x08;
    offset = writeVarint(buf, offset, h.term);
  }
  if (h.vote !== 0n) {
    buf[offset++] = 0x10;
    offset = writeVarint(buf, offset, h.vote);
  }
  if (h.commit !== 0n) {
    buf[offset++] = 0x18;
    offset = writeVarint(buf, offset, h.commit);
  }
  return offset;
}
