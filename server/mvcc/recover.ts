/**
 * Rebuilds a store's memory from its backend: the meta entries and the key index, either
 * from an index checkpoint (index-checkpoint.ts, written when the member last stopped
 * cleanly) or from one scan of the `key` bucket in revision order.
 *
 * A checkpoint is used only when it describes this backend: the same consistent index and
 * compaction revisions in the meta bucket, and the same first and last `key` records (one
 * seek each). Otherwise — or when it cannot be read — the bucket is scanned, and the outcome
 * says why.
 *
 * The scan does not decode values: each record gives only its key and, for a put, the create
 * revision, version and lease (`peekRecordMeta`), so recovery costs time in the number of
 * records and memory in the number of keys. Every record also goes into the record ledger
 * (revision, tombstone mark, stored value length).
 *
 * The current revision is the newest record's main revision, but never below the compact
 * revision (a compaction may have removed the newest tombstones) nor below 1. Records left
 * by an interrupted compaction are tolerated (a tombstone of a key that is not live is
 * skipped); the caller then runs that compaction again.
 */
import type { Backend } from '../storage/backend.js';
import { Bucket } from '../storage/backend.js';
import { peekKey, peekRecordMeta } from './kv-codec.js';
import { decodeIndexCheckpoint } from './index-checkpoint.js';
import { readMeta, type MvccMeta } from './meta.js';
import { RecordLedger } from './record-ledger.js';
import { isRevisionKey, isTombstoneKey, revisionKeyOf, subOfKey } from './revision.js';
import { newStoreState, type StoreOptions, type StoreState } from './state.js';

/** How the index was rebuilt: from the checkpoint, or by a scan (and why the checkpoint was not used). */
export type RecoveredFrom = { readonly from: 'checkpoint' } | { readonly from: 'scan'; readonly checkpointIgnored?: string };

export interface Recovered {
  readonly state: StoreState;
  readonly meta: MvccMeta;
  readonly how: RecoveredFrom;
}

const EMPTY = Buffer.alloc(0);

/** Main revision of a backend key as a number. */
function mainNumber(key: Buffer): number {
  return key.readUInt32BE(0) * 0x100000000 + key.readUInt32BE(4);
}

/** The first (or last) record key of the `key` bucket, without its bucket prefix. */
async function edgeKey(backend: Backend, reverse: boolean): Promise<Buffer | undefined> {
  for await (const [key] of backend.iterate(Bucket.Key, { reverse, limit: 1, keysOnly: true })) return key;
  return undefined;
}

function sameMeta(a: MvccMeta, b: MvccMeta): boolean {
  return a.consistentIndex === b.consistentIndex && a.scheduledCompactRev === b.scheduledCompactRev && a.finishedCompactRev === b.finishedCompactRev;
}

/** The state `checkpoint` describes, or why it does not describe `backend`. */
async function fromCheckpoint(backend: Backend, meta: MvccMeta, checkpoint: Buffer, options: StoreOptions | undefined): Promise<StoreState | string> {
  let read;
  try {
    read = decodeIndexCheckpoint(checkpoint);
  } catch (e) {
    return `unreadable: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (!sameMeta(read.meta, meta)) return 'the backend changed after it was written';
  const { records } = read;
  const n = records.length;
  const recordKey = (i: number): Buffer => revisionKeyOf(records.main[i]!, records.sub[i]!, records.tombstone[i] === 1);
  const [first, last] = await Promise.all([edgeKey(backend, false), edgeKey(backend, true)]);
  const agrees = n === 0 ? first === undefined : first !== undefined && last !== undefined && first.equals(recordKey(0)) && last.equals(recordKey(n - 1));
  if (!agrees) return 'its records are not the backend’s';
  let state: StoreState;
  try {
    state = newStoreState(backend, options, RecordLedger.of(records));
    for (const ki of read.keys) state.index.restore(ki);
  } catch (e) {
    return `unreadable: ${e instanceof Error ? e.message : String(e)}`;
  }
  state.currentRevision = read.currentRevision;
  return state;
}

/** Fills `state`'s meta fields from the backend's. */
function withMeta(state: StoreState, meta: MvccMeta): StoreState {
  state.consistentIndex = meta.consistentIndex;
  state.compactRevision = meta.finishedCompactRev;
  state.persistedScheduledCompact = meta.scheduledCompactRev;
  return state;
}

/** Rebuilds the store's memory from `backend`, from `checkpoint` where it describes the backend. */
export async function recoverState(backend: Backend, options?: StoreOptions, checkpoint?: Buffer): Promise<Recovered> {
  const meta = await readMeta(backend);
  let checkpointIgnored: string | undefined;
  if (checkpoint !== undefined) {
    const restored = await fromCheckpoint(backend, meta, checkpoint, options);
    if (typeof restored !== 'string') return { state: withMeta(restored, meta), meta, how: { from: 'checkpoint' } };
    checkpointIgnored = restored;
  }
  const state = await scanState(backend, meta, options);
  return { state, meta, how: checkpointIgnored === undefined ? { from: 'scan' } : { from: 'scan', checkpointIgnored } };
}

/**
 * Bytes of records scanned between two `dropReadMappings` of the backend: the scan reads every
 * record, and LevelDB keeps each table file it reads mapped until it closes, so without them the
 * member's peak resident size would grow with its data.
 */
const SCAN_LEG_BYTES = 256 * 1024 * 1024;
/** A last leg smaller than this keeps its mappings (a small store's are not worth a reopen). */
const SMALL_LEG_BYTES = 64 * 1024 * 1024;

/** The state rebuilt by one scan of the `key` bucket (in legs of SCAN_LEG_BYTES). */
async function scanState(backend: Backend, meta: MvccMeta, options: StoreOptions | undefined): Promise<StoreState> {
  const state = newStoreState(backend, options);
  const index = state.index;
  const ledger = state.ledger;
  let newest = 0;
  let from: Buffer | undefined;
  for (;;) {
    let leg = 0;
    let last: Buffer | undefined;
    // In bulk batches (up to 1000 entries / 1 MiB per LevelDB read, the next read in flight while
    // this one is indexed): no promise or generator step per record.
    for await (const batch of backend.batches(Bucket.Key, from === undefined ? undefined : { gte: from })) {
      const start = batch.keyStart;
      for (const [stored, storedValue] of batch.entries) {
        const key = start === 0 ? stored : stored.subarray(start);
        const value = storedValue ?? EMPTY;
        if (!isRevisionKey(key)) throw new Error(`mvcc: malformed key in the key bucket: ${key.toString('hex')}`);
        const main = mainNumber(key);
        const sub = subOfKey(key);
        const tombstone = isTombstoneKey(key);
        ledger.add(main, sub, tombstone, value.length);
        if (tombstone) {
          index.restoreTombstone(peekKey(value).toString('latin1'), main, sub);
        } else {
          const m = peekRecordMeta(value);
          index.put(m.key.toString('latin1'), main, sub, m.createRevision, m.version, m.lease);
        }
        newest = main;
        leg += key.length + value.length;
      }
      if (leg >= SCAN_LEG_BYTES && batch.entries.length > 0) {
        const k = batch.entries[batch.entries.length - 1]![0];
        last = Buffer.from(start === 0 ? k : k.subarray(start));
        break;
      }
    }
    if (leg >= SMALL_LEG_BYTES) await backend.dropReadMappings?.();
    if (last === undefined) break;
    from = Buffer.concat([last, Buffer.from([0])]);
  }
  let current = newest > 1 ? BigInt(newest) : 1n;
  if (meta.scheduledCompactRev > current) current = meta.scheduledCompactRev;
  if (meta.finishedCompactRev > current) current = meta.finishedCompactRev;
  state.currentRevision = current;
  return withMeta(state, meta);
}
