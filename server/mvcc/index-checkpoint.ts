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
 *   ledger: main f64 × records · sub u32 × records · value length u32 × records · tombstone u8 × records
 *     (each array at an offset its element size divides: copied whole, not field by field)
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

/** What is read from the store to write one. */
export interface CheckpointSource {
  readonly meta: MvccMeta;
  readonly currentRevision: bigint;
  readonly records: RecordSizes;
  readonly index: TreeIndex;
}

/** What a checkpoint holds: the same, with the key index's entries in ascending order. */
export type IndexCheckpoint = Omit<CheckpointSource, 'index'> & { readonly keys: readonly KeyIndex[] };

function keyBytes(ki: KeyIndex): number {
  return 4 + ki.key.length + 8 + 8 + 8 + 4 + 12 * ki.size + 4 + 4 * ki.ends.length;
}

export function encodeIndexCheckpoint(source: CheckpointSource): Buffer {
  const { meta, records, index } = source;
  const n = records.length;
  let size = HEADER + 17 * n + DIGEST;
  index.forEach((ki) => (size += keyBytes(ki)));
  // Its own ArrayBuffer (offset 0), so the ledger's arrays land aligned.
  const out = Buffer.allocUnsafeSlow(size);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  MAGIC.copy(out, 0);
  view.setBigUint64(8, meta.consistentIndex, true);
  view.setBigUint64(16, source.currentRevision, true);
  view.setBigUint64(24, meta.scheduledCompactRev, true);
  view.setBigUint64(32, meta.finishedCompactRev, true);
  view.setUint32(40, n, true);
  view.setUint32(44, index.size, true);
  let at = HEADER;
  new Float64Array(out.buffer, at, n).set(records.main.subarray(0, n));
  at += 8 * n;
  new Uint32Array(out.buffer, at, n).set(records.sub.subarray(0, n));
  at += 4 * n;
  new Uint32Array(out.buffer, at, n).set(records.valueLength.subarray(0, n));
  at += 4 * n;
  out.set(records.tombstone.subarray(0, n), at);
  at += n;
  index.forEach((ki) => {
    const key = ki.key;
    view.setUint32(at, key.length, true);
    at += 4;
    for (let i = 0; i < key.length; i++) out[at++] = key.charCodeAt(i);
    view.setFloat64(at, ki.created, true);
    view.setFloat64(at + 8, ki.version, true);
    view.setBigInt64(at + 16, ki.lease, true);
    const pairs = ki.size;
    view.setUint32(at + 24, pairs, true);
    at += 28;
    for (let p = 0; p < pairs; p++, at += 12) {
      view.setFloat64(at, ki.mainAt(p), true);
      view.setUint32(at + 8, ki.subAt(p), true);
    }
    const ends = ki.ends;
    view.setUint32(at, ends.length, true);
    at += 4;
    for (let e = 0; e < ends.length; e++, at += 4) view.setUint32(at, ends[e]!, true);
  });
  createHash('sha256').update(out.subarray(0, at)).digest().copy(out, at);
  return out;
}

/** `bytes`, copied to offset 0 of an ArrayBuffer of its own unless already there (typed-array views need alignment). */
function aligned(bytes: Buffer): Buffer {
  if (bytes.byteOffset % 8 === 0) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

/** Reads `bytes` back; throws with what is wrong (a torn, foreign or corrupt file). */
export function decodeIndexCheckpoint(bytes: Buffer): IndexCheckpoint {
  if (bytes.length < HEADER + DIGEST || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not an index checkpoint');
  const all = aligned(bytes);
  const body = all.subarray(0, all.length - DIGEST);
  if (!createHash('sha256').update(body).digest().equals(all.subarray(body.length))) throw new Error('checksum mismatch');
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const n = view.getUint32(40, true);
  const keyCount = view.getUint32(44, true);
  let at = HEADER;
  const need = (bytesNeeded: number): void => {
    if (at + bytesNeeded > body.length) throw new Error(`cut short at byte ${at}`);
  };
  need(17 * n);
  const base = body.byteOffset;
  const records = {
    length: n,
    main: new Float64Array(body.buffer.slice(base + at, base + at + 8 * n)),
    sub: new Uint32Array(body.buffer.slice(base + at + 8 * n, base + at + 12 * n)),
    valueLength: new Uint32Array(body.buffer.slice(base + at + 12 * n, base + at + 16 * n)),
    tombstone: new Uint8Array(body.buffer.slice(base + at + 16 * n, base + at + 17 * n)),
  };
  at += 17 * n;
  for (let i = 0; i < n; i++) if (records.tombstone[i]! > 1) throw new Error(`record ${i} has tombstone mark ${records.tombstone[i]}`);
  const keys: KeyIndex[] = new Array<KeyIndex>(keyCount);
  for (let k = 0; k < keyCount; k++) {
    need(4);
    const keyLength = view.getUint32(at, true);
    need(4 + keyLength + 28);
    const key = body.toString('latin1', at + 4, at + 4 + keyLength);
    at += 4 + keyLength;
    const created = view.getFloat64(at, true);
    const version = view.getFloat64(at + 8, true);
    const lease = view.getBigInt64(at + 16, true);
    const pairs = view.getUint32(at + 24, true);
    at += 28;
    need(12 * pairs + 4);
    const revs = new Array<number>(2 * pairs);
    for (let p = 0; p < pairs; p++, at += 12) {
      revs[2 * p] = view.getFloat64(at, true);
      revs[2 * p + 1] = view.getUint32(at + 8, true);
    }
    const endCount = view.getUint32(at, true);
    at += 4;
    need(4 * endCount);
    const ends = new Array<number>(endCount);
    for (let e = 0; e < endCount; e++, at += 4) ends[e] = view.getUint32(at, true);
    keys[k] = KeyIndex.restored(key, revs, ends, created, version, lease);
  }
  if (at !== body.length) throw new Error(`${body.length - at} bytes left after the last key`);
  return {
    meta: { consistentIndex: view.getBigUint64(8, true), scheduledCompactRev: view.getBigUint64(24, true), finishedCompactRev: view.getBigUint64(32, true) },
    currentRevision: view.getBigUint64(16, true),
    records,
    keys,
  };
}
