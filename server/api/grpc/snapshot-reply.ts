/**
 * The serializer of Maintenance.Snapshot replies: SnapshotResponse {2 remaining_bytes uint64,
 * 3 blob bytes} written by hand into one buffer of the exact size, the blob copied once. The
 * generated `responseSerialize` grows a writer for every 32 KiB chunk (several copies) and then
 * copies the result again. Replies with a header (never sent: ETCD-FACTS, snapshot replies carry
 * none) take the generated encoder. Same bytes as the generated encoder (snapshot-reply.test.ts).
 */
import { SnapshotResponse } from '../../../proto/gen/etcd/rpc.js';

const TAG_REMAINING = 0x10; // field 2, varint
const TAG_BLOB = 0x1a; // field 3, length-delimited
const MAX_HEAD = 1 + 10 + 1 + 5;

/** Bytes of `v` as a varint, written at `at`; returns the position after it. */
function putVarint(buf: Buffer, at: number, v: bigint): number {
  let p = at;
  let low = Number(v & 0xffffffffn);
  let high = Number(v >> 32n);
  while (high > 0 || low >= 0x80) {
    buf[p++] = (low & 0x7f) | 0x80;
    low = ((low >>> 7) | ((high & 0x7f) << 25)) >>> 0;
    high >>>= 7;
  }
  buf[p++] = low;
  return p;
}

export function encodeSnapshotResponse(value: SnapshotResponse): Buffer {
  if (value.header !== undefined) return Buffer.from(SnapshotResponse.encode(value).finish());
  const blob = value.blob;
  const out = Buffer.allocUnsafe(MAX_HEAD + blob.length);
  let p = 0;
  if (value.remainingBytes !== 0n) {
    out[p++] = TAG_REMAINING;
    p = putVarint(out, p, BigInt.asUintN(64, value.remainingBytes));
  }
  if (blob.length > 0) {
    out[p++] = TAG_BLOB;
    p = putVarint(out, p, BigInt(blob.length));
    out.set(blob, p);
    p += blob.length;
  }
  return out.subarray(0, p);
}
