/**
 * Encodes one write — a Write record followed by the records of a batch of operations — into a
 * caller-supplied buffer, continuing the CRC chain (FORMAT.md §Write). Also builds a new segment's
 * head. Pure; the only allocation on the batch path is the caller's reusable buffer.
 */
import { SnapshotMetadata as WireSnapshotMetadata } from '../../proto/gen/kvstore/raft.js';
import { entryBytes, hardStateBytes, writeEntry, writeHardState } from './proto-codec.js';
import { frameBytes, HEADER_BYTES, sealFrame, WRITE_DATA_BYTES, WRITE_RECORD_BYTES } from './record-frame.js';
import { RecordType } from './record-type.js';
import type { Entry, HardState, SnapshotMetadata } from './types.js';

/** One queued operation with the bytes its records take (computed once, when it is queued). */
export type WalOp =
  | { readonly kind: 'save'; readonly entries: readonly Entry[]; readonly hardState: HardState | undefined; readonly bytes: number }
  | { readonly kind: 'snapshot'; readonly snapshot: SnapshotMetadata; readonly data: Uint8Array; readonly bytes: number }
  | { readonly kind: 'metadata'; readonly data: Buffer; readonly bytes: number };

/** Throws RangeError when a number does not fit uint64. */
export function saveOp(entries: readonly Entry[], hardState: HardState | undefined): WalOp {
  let bytes = hardState === undefined ? 0 : frameBytes(hardStateBytes(hardState));
  for (const e of entries) bytes += frameBytes(entryBytes(e));
  return { kind: 'save', entries, hardState, bytes };
}

export function snapshotOp(snapshot: SnapshotMetadata): WalOp {
  const wire = { index: BigInt(snapshot.index), term: BigInt(snapshot.term), confState: snapshot.confState };
  const data = WireSnapshotMetadata.encode(wire).finish();
  return { kind: 'snapshot', snapshot, data, bytes: frameBytes(data.length) };
}

export function metadataOp(metadata: Buffer): WalOp {
  return { kind: 'metadata', data: metadata, bytes: frameBytes(metadata.length) };
}

/** Bytes of the write holding `ops`, Write record included. */
export function writeBytes(ops: readonly WalOp[]): number {
  let n = WRITE_RECORD_BYTES;
  for (const op of ops) n += op.bytes;
  return n;
}

/**
 * Encodes the write for `ops` at `buf[offset, offset + writeBytes(ops))`, chaining from
 * `previousCrc`. Returns the running CRC after its last record. When `payloadOffsets` is given,
 * the offset in `buf` of each entry's payload (its data, the Entry message's last field) is
 * pushed to it, entry by entry in op order.
 */
export function encodeWrite(buf: Buffer, offset: number, previousCrc: number, ops: readonly WalOp[], payloadOffsets?: number[]): number {
  const length = writeBytes(ops);
  buf.writeUInt32LE(length, offset + HEADER_BYTES);
  buf.writeUInt32LE(0, offset + HEADER_BYTES + 4);
  let crc = sealFrame(buf, offset, RecordType.Write, WRITE_DATA_BYTES, previousCrc);
  let at = offset + WRITE_RECORD_BYTES;
  for (const op of ops) {
    switch (op.kind) {
      case 'save':
        for (const e of op.entries) {
          const len = writeEntry(buf, at + HEADER_BYTES, e) - (at + HEADER_BYTES);
          payloadOffsets?.push(at + HEADER_BYTES + len - e.data.length);
          crc = sealFrame(buf, at, RecordType.Entry, len, crc);
          at += frameBytes(len);
        }
        if (op.hardState !== undefined) {
          const len = writeHardState(buf, at + HEADER_BYTES, op.hardState) - (at + HEADER_BYTES);
          crc = sealFrame(buf, at, RecordType.State, len, crc);
          at += frameBytes(len);
        }
        break;
      case 'snapshot':
      case 'metadata':
        buf.set(op.data, at + HEADER_BYTES);
        crc = sealFrame(buf, at, op.kind === 'snapshot' ? RecordType.Snapshot : RecordType.Metadata, op.data.length, crc);
        at += frameBytes(op.data.length);
        break;
    }
  }
  if (at !== offset + length) throw new Error(`wal: encoded ${at - offset} bytes for a write of ${length}`);
  return crc;
}

/**
 * A new segment's bytes: a Crc record carrying `seed`, then the head write: Metadata, the latest
 * Snapshot marker (if any) and the latest hard state. Returns the bytes and the CRC after them.
 */
export function encodeSegmentHead(
  seed: number,
  metadata: Buffer,
  snapshot: SnapshotMetadata | undefined,
  hardState: HardState,
): { readonly bytes: Buffer; readonly crc: number } {
  const ops: WalOp[] = [metadataOp(metadata)];
  if (snapshot !== undefined) ops.push(snapshotOp(snapshot));
  ops.push(saveOp([], hardState));
  const bytes = Buffer.alloc(HEADER_BYTES + writeBytes(ops));
  sealFrame(bytes, 0, RecordType.Crc, 0, seed);
  const crc = encodeWrite(bytes, HEADER_BYTES, seed, ops);
  return { bytes, crc };
}
