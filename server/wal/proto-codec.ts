/**
 * Allocation-free protobuf encoding of the two messages the WAL writes on its hot path, Entry and
 * HardState, straight into a batch buffer. Terms and indexes are numbers in memory and uint64 on
 * disk (`writeIndexField`; `indexFromWire` converts back when reading). The bytes are identical to the generated
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

/** Throws unless `n` is a term or an index: a non-negative integer below 2^53. */
function checkIndex(n: number, field: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${field} ${n} is not a non-negative integer below 2^53`);
}

/**
 * A uint64 read from the wire or the disk as a term or an index. Throws RangeError above
 * Number.MAX_SAFE_INTEGER (never reached by a counter that grows by one; a record claiming it is
 * corrupt).
 */
export function indexFromWire(v: bigint, field: string): number {
  if (v > MAX_SAFE) throw new RangeError(`${field} ${v} is above 2^53 - 1`);
  return Number(v);
}
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Writes a uint64 field holding a term or an index (tag, varint); nothing when 0, as proto3 encoders omit it. */
export function writeIndexField(buf: Buffer, offset: number, field: number, n: number): number {
  if (n === 0) return offset;
  buf[offset++] = field << 3;
  return writeSmallVarint(buf, offset, n);
}

export function indexFieldBytes(n: number): number {
  return n === 0 ? 0 : 1 + smallVarintBytes(n);
}

export function entryBytes(e: Entry): number {
  checkIndex(e.term, 'entry term');
  checkIndex(e.index, 'entry index');
  let n = indexFieldBytes(e.term) + indexFieldBytes(e.index);
  if (e.type !== 0) n += 1 + (e.type > 0 ? smallVarintBytes(e.type) : varintBytes(int32AsUint64(e.type)));
  if (e.data.length !== 0) n += 1 + smallVarintBytes(e.data.length) + e.data.length;
  return n;
}

export function writeEntry(buf: Buffer, offset: number, e: Entry): number {
  offset = writeIndexField(buf, offset, 1, e.term);
  offset = writeIndexField(buf, offset, 2, e.index);
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
  checkIndex(h.term, 'hard state term');
  checkUint64(h.vote, 'hard state vote');
  checkIndex(h.commit, 'hard state commit');
  return indexFieldBytes(h.term) + uint64FieldBytes(h.vote) + indexFieldBytes(h.commit);
}

export function writeHardState(buf: Buffer, offset: number, h: HardState): number {
  offset = writeIndexField(buf, offset, 1, h.term);
  offset = writeUint64Field(buf, offset, 2, h.vote);
  return writeIndexField(buf, offset, 3, h.commit);
}
