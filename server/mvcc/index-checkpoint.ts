/**
 * The index checkpoint: the store's whole memory — key index, record ledger, revisions and
 * meta — as one file written when a member stops cleanly, so that the next start reads it
 * instead of scanning every record of the `key` bucket (recover.ts). Pure: bytes in, bytes
 * out; the file itself is bootstrap/index-checkpoint-file.ts's.
 *
 * It describes the backend exactly as it is when written: nothing unflushed, no compaction
 * running (the caller settles the store first). recover.ts uses it only when the backend's
 * meta (consistent index, compaction revisions) and its first and last `key` records are the
 * ones recorded here; any other start scans.
 *
 * Layout (little-endian), then the SHA-256 of everything before it:
 *   'KVINDEX1' · consistent index u64 · current revision u64 · scheduled compact u64 ·
 *   finished compact u64 · records u32 · keys u32
 *   ledger: main f64 × records · sub u32 × records · tombstone u8 × records · value length u32 × records
 *   per key, ascending bytewise: key length u32 · key · created f64 · version f64 · lease i64 ·
 *     revision pairs u32 · (main f64 · sub u32) × pairs · generation ends u32 · end u32 × ends
 * Example: an empty store at revision 1 is the 48-byte header (records 0, keys 0) and its hash.
 */
import { createHash } from 'node:crypto';
import { KeyIndex } from './key-index.js';
import type { MvccMeta } from './meta.js';
import type { RecordSizes } from './record-ledger.js';
import type { TreeIndex } from './tree-index.js';

const MAGIC = Buffer.from('KVINDEX1');
const HEADER = 48;
const DIGEST = 32;

/** What a checkpoint holds. */
export interface IndexCheckpoint {
  readonly meta: MvccMeta;
  readonly currentRevision: bigint;
  readonly records: RecordSizes;
  /** The key index's entries, ascending. */
  readonly keys: readonly KeyIndex[];
}

/** What is read from the store to write one. */
export interface CheckpointSource {
  readonly meta: MvccMeta;
  readonly currentRevision: bigint;
  readonly records: RecordSizes;
  readonly index: TreeIndex;
}

function keyBytes(ki: KeyIndex): number {
  return 4 + ki.key.length + 8 + 8 + 8 + 4 + 12 * ki.size + 4 + 4 * ki.ends.length;
}

export function encodeIndexCheckpoint(source: CheckpointSource): Buffer {
  const { meta, records, index } = source;
  const n = records.length;
  let size = HEADER + 17 * n + DIGEST;
  index.forEach((ki) => (size += keyBytes(ki)));
  const out = Buffer.allocUnsafe(size);
  MAGIC.copy(out, 0);
  out.writeBigUInt64LE(meta.consistentIndex, 8);
  out.writeBigUInt64LE(source.currentRevision, 16);
  out.writeBigUInt64LE(meta.scheduledCompactRev, 24);
  out.writeBigUInt64LE(meta.finishedCompactRev, 32);
  out.writeUInt32LE(n, 40);
  out.writeUInt32LE(index.size, 44);
  let at = HEADER;
  for (let i = 0; i < n; i++, at += 8) out.writeDoubleLE(records.main[i]!, at);
  for (let i = 0; i < n; i++, at += 4) out.writeUInt32LE(records.sub[i]!, at);
  for (let i = 0; i < n; i++) out[at++] = records.tombstone[i]!;
  for (let i = 0; i < n; i++, at += 4) out.writeUInt32LE(records.valueLength[i]!, at);
  index.forEach((ki) => {
    at = out.writeUInt32LE(ki.key.length, at);
    at += out.write(ki.key, at, 'latin1');
    at = out.writeDoubleLE(ki.created, at);
    at = out.writeDoubleLE(ki.version, at);
    at = out.writeBigInt64LE(ki.lease, at);
    const pairs = ki.size;
    at = out.writeUInt32LE(pairs, at);
    for (let p = 0; p < pairs; p++) {
      at = out.writeDoubleLE(ki.mainAt(p), at);
      at = out.writeUInt32LE(ki.subAt(p), at);
    }
    at = out.writeUInt32LE(ki.ends.length, at);
    for (const end of ki.ends) at = out.writeUInt32LE(end, at);
  });
  createHash('sha256').update(out.subarray(0, at)).digest().copy(out, at);
  return out;
}

/** Reads `bytes` back; throws with what is wrong (a torn, foreign or corrupt file). */
export function decodeIndexCheckpoint(bytes: Buffer): IndexCheckpoint {
  if (bytes.length < HEADER + DIGEST || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not an index checkpoint');
  const body = bytes.subarray(0, bytes.length - DIGEST);
  if (!createHash('sha256').update(body).digest().equals(bytes.subarray(body.length))) throw new Error('checksum mismatch');
  const n = body.readUInt32LE(40);
  const keyCount = body.readUInt32LE(44);
  let at = HEADER;
  const need = (bytesNeeded: number): void => {
    if (at + bytesNeeded > body.length) throw new Error(`cut short at byte ${at}`);
  };
  need(17 * n);
  const records = { length: n, main: new Float64Array(n), sub: new Uint32Array(n), tombstone: new Uint8Array(n), valueLength: new Uint32Array(n) };
  for (let i = 0; i < n; i++, at += 8) records.main[i] = body.readDoubleLE(at);
  for (let i = 0; i < n; i++, at += 4) records.sub[i] = body.readUInt32LE(at);
  for (let i = 0; i < n; i++) {
    const t = body[at++]!;
    if (t > 1) throw new Error(`record ${i} has tombstone mark ${t}`);
    records.tombstone[i] = t;
  }
  for (let i = 0; i < n; i++, at += 4) records.valueLength[i] = body.readUInt32LE(at);
  const keys: KeyIndex[] = [];
  for (let k = 0; k < keyCount; k++) {
    need(4);
    const keyLength = body.readUInt32LE(at);
    need(4 + keyLength + 28);
    const key = body.toString('latin1', at + 4, at + 4 + keyLength);
    at += 4 + keyLength;
    const created = body.readDoubleLE(at);
    const version = body.readDoubleLE(at + 8);
    const lease = body.readBigInt64LE(at + 16);
    const pairs = body.readUInt32LE(at + 24);
    at += 28;
    need(12 * pairs + 4);
    const revs = new Array<number>(2 * pairs);
    for (let p = 0; p < pairs; p++, at += 12) {
      revs[2 * p] = body.readDoubleLE(at);
      revs[2 * p + 1] = body.readUInt32LE(at + 8);
    }
    const endCount = body.readUInt32LE(at);
    at += 4;
    need(4 * endCount);
    const ends = new Array<number>(endCount);
    for (let e = 0; e < endCount; e++, at += 4) ends[e] = body.readUInt32LE(at);
    keys.push(KeyIndex.restored(key, revs, ends, created, version, lease));
  }
  if (at !== body.length) throw new Error(`${body.length - at} bytes left after the last key`);
  return {
    meta: { consistentIndex: body.readBigUInt64LE(8), scheduledCompactRev: body.readBigUInt64LE(24), finishedCompactRev: body.readBigUInt64LE(32) },
    currentRevision: body.readBigUInt64LE(16),
    records,
    keys,
  };
}
