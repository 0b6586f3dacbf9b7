/**
 * The stored form of a lease in the backend `lease` bucket (layout: ./FORMAT.md).
 *
 * - key:   the lease id as 8 bytes big-endian (two's complement), so keys sort by id
 *          for non-negative ids;
 * - value: protobuf, wire-identical to etcd's `leasepb.Lease`
 *          { 1: ID int64, 2: TTL int64, 3: RemainingTTL int64 }, zero fields omitted.
 *
 * Decoding never throws: malformed bytes come back as an Internal domain error.
 * Unknown fields are skipped (forward compatibility).
 */
import { fail, ok, type Result } from '../errors/domain-error.js';

export interface LeaseRecord {
  readonly id: bigint;
  /** Granted TTL in seconds (already raised to the minimum at grant time). */
  readonly ttl: bigint;
  /** Last checkpointed remaining TTL in seconds; 0 when none. */
  readonly remainingTtl: bigint;
}

const U64 = (1n << 64n) - 1n;

export function encodeLeaseKey(id: bigint): Buffer {
  const key = Buffer.alloc(8);
  key.writeBigInt64BE(BigInt.asIntN(64, id));
  return key;
}

export function decodeLeaseKey(key: Buffer): Result<bigint> {
  if (key.length !== 8) return corrupt(`lease key has ${key.length} bytes, want 8`);
  return ok(key.readBigInt64BE(0));
}

export function encodeLeaseRecord(record: LeaseRecord): Buffer {
  const bytes: number[] = [];
  field(bytes, 1, record.id);
  field(bytes, 2, record.ttl);
  field(bytes, 3, record.remainingTtl);
  return Buffer.from(bytes);
}

export function decodeLeaseRecord(value: Buffer): Result<LeaseRecord> {
  const values = [0n, 0n, 0n, 0n];
  let pos = 0;
  while (pos < value.length) {
    const tag = readVarint(value, pos);
    if (tag === undefined) return corrupt('truncated tag');
    pos = tag.next;
    const fieldNo = Number(tag.value >> 3n);
    const wireType = Number(tag.value & 7n);
    if (wireType === 0) {
      const v = readVarint(value, pos);
      if (v === undefined) return corrupt(`truncated varint in field ${fieldNo}`);
      pos = v.next;
      if (fieldNo >= 1 && fieldNo <= 3) values[fieldNo] = BigInt.asIntN(64, v.value);
      continue;
    }
    const skipped = skip(value, pos, wireType);
    if (skipped === undefined) return corrupt(`bad wire type ${wireType} in field ${fieldNo}`);
    pos = skipped;
  }
  return ok({ id: values[1]!, ttl: values[2]!, remainingTtl: values[3]! });
}

function field(out: number[], fieldNo: number, v: bigint): void {
  if (v === 0n) return;
  writeVarint(out, BigInt(fieldNo << 3));
  writeVarint(out, BigInt.asUintN(64, v));
}

function writeVarint(out: number[], v: bigint): void {
  let x = v & U64;
  while (x >= 0x80n) {
    out.push(Number(x & 0x7fn) | 0x80);
    x >>= 7n;
  }
  out.push(Number(x));
}

function readVarint(buf: Buffer, start: number): { value: bigint; next: number } | undefined {
  let result = 0n;
  let shift = 0n;
  for (let pos = start; pos < buf.length && shift < 70n; pos++) {
    const b = buf[pos]!;
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return { value: result & U64, next: pos + 1 };
    shift += 7n;
  }
  return undefined;
}

/** Position after a field of the given wire type starting at `pos`, or undefined if malformed. */
function skip(buf: Buffer, pos: number, wireType: number): number | undefined {
  switch (wireType) {
    case 1:
      return pos + 8 <= buf.length ? pos + 8 : undefined;
    case 5:
      return pos + 4 <= buf.length ? pos + 4 : undefined;
    case 2: {
      const len = readVarint(buf, pos);
      if (len === undefined) return undefined;
      const end = len.next + Number(len.value);
      return len.value <= BigInt(buf.length) && end <= buf.length ? end : undefined;
    }
    default:
      return undefined;
  }
}

function corrupt<T>(detail: string): Result<T> {
  return fail({ kind: 'Internal', message: `lease: corrupt record: ${detail}` });
}
