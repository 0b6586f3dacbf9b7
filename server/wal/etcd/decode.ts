/**
 * Decodes the segments of a WAL written by etcd 3.4 (not kvstore's own framing: FORMAT.md
 * §"etcd's WAL"). Pure: segment bytes in, the log they hold out.
 *
 * Frame: an 8-byte little-endian length word; its low 56 bits give the record size, and when
 * bit 63 is set bits 56–58 give the zero padding that follows (records are 8-aligned). The
 * record is a walpb.Record {1 type, 2 crc, 3 data}. CRCs are CRC-32C chained across records
 * (each record's is the checksum of its data continued from the previous record's); a crc
 * record (type 4) carries the running CRC into a segment (0 for the first). A zero length word
 * is the end of the written part (etcd preallocates 64 MB of zeros); a record running past the
 * end of the last segment is a torn write that was never acknowledged and is ignored.
 *
 * Replay as etcd's: the last state record is the hard state, the last snapshot record the
 * marker; an entry whose index is already present replaces the tail from there. Unlike etcd,
 * entries at or before the marker are kept (membership is rebuilt from the founding entries).
 */
import { Crc32c } from '../../storage/crc32c.js';
import { readFields, smallField } from './proto-fields.js';

export const EtcdRecordType = { Metadata: 1, Entry: 2, State: 3, Crc: 4, Snapshot: 5 } as const;

export interface EtcdEntry {
  readonly term: number;
  readonly index: number;
  /** raftpb.EntryType: 0 normal, 1 conf change, 2 conf change v2. */
  readonly type: number;
  readonly data: Buffer;
}

export interface EtcdWal {
  readonly memberId: bigint;
  readonly clusterId: bigint;
  readonly hardState: { readonly term: number; readonly vote: bigint; readonly commit: number };
  readonly marker: { readonly index: number; readonly term: number };
  /** Consecutive, ascending by index. */
  readonly entries: readonly EtcdEntry[];
}

export type EtcdWalOutcome = { readonly ok: true; readonly wal: EtcdWal } | { readonly ok: false; readonly reason: string };

interface Replay {
  metadata?: Buffer;
  hardState: EtcdWal['hardState'];
  marker: EtcdWal['marker'];
  entries: EtcdEntry[];
}

function applyRecord(r: Replay, type: number, data: Buffer): string | undefined {
  if (type === EtcdRecordType.Metadata) {
    if (r.metadata !== undefined && !r.metadata.equals(data)) return 'metadata records differ';
    r.metadata = Buffer.from(data);
  } else if (type === EtcdRecordType.State) {
    const f = readFields(data);
    r.hardState = { term: smallField(f, 1), vote: f.varints.get(2) ?? 0n, commit: smallField(f, 3) };
  } else if (type === EtcdRecordType.Snapshot) {
    const f = readFields(data);
    r.marker = { index: smallField(f, 1), term: smallField(f, 2) };
  } else if (type === EtcdRecordType.Entry) {
    const f = readFields(data);
    const e: EtcdEntry = { type: smallField(f, 1), term: smallField(f, 2), index: smallField(f, 3), data: Buffer.from(f.bytes.get(4) ?? Buffer.alloc(0)) };
    const first = r.entries[0]?.index;
    if (first === undefined || e.index < first) r.entries = [e];
    else if (e.index > first + r.entries.length) return `entry ${e.index} leaves a gap after ${first + r.entries.length - 1}`;
    else {
      r.entries.length = e.index - first;
      r.entries.push(e);
    }
  } else {
    return `unknown record type ${type}`;
  }
  return undefined;
}

export function decodeEtcdWal(segments: readonly { readonly name: string; readonly bytes: Buffer }[]): EtcdWalOutcome {
  const r: Replay = { hardState: { term: 0, vote: 0n, commit: 0 }, marker: { index: 0, term: 0 }, entries: [] };
  let crc = new Crc32c();
  let running = 0;
  for (const [i, { name, bytes }] of segments.entries()) {
    const last = i === segments.length - 1;
    let at = 0;
    while (at + 8 <= bytes.length) {
      const word = bytes.readBigUInt64LE(at);
      if (word === 0n) break;
      const size = Number(word & 0x00ffffffffffffffn);
      const pad = word >> 63n === 1n ? Number((word >> 56n) & 7n) : 0;
      const end = at + 8 + size + pad;
      if (end > bytes.length) {
        if (last) break;
        return { ok: false, reason: `${name}: record at ${at} runs past the end of a segment that is not the last` };
      }
      try {
        const rec = readFields(bytes.subarray(at + 8, at + 8 + size));
        const type = smallField(rec, 1);
        const stored = Number(rec.varints.get(2) ?? 0n);
        const data = rec.bytes.get(3) ?? Buffer.alloc(0);
        if (type === EtcdRecordType.Crc) {
          if (running !== 0 && stored !== running) return { ok: false, reason: `${name}: crc chain broken at ${at}` };
          crc = new Crc32c(stored);
          running = stored;
        } else {
          running = crc.update(data).digest();
          if (running !== stored) return { ok: false, reason: `${name}: record at ${at}: crc mismatch` };
          const problem = applyRecord(r, type, data);
          if (problem !== undefined) return { ok: false, reason: `${name}: record at ${at}: ${problem}` };
        }
      } catch (err) {
        return { ok: false, reason: `${name}: record at ${at}: ${(err as Error).message}` };
      }
      at = end;
    }
  }
  if (r.metadata === undefined) return { ok: false, reason: 'no metadata record' };
  const meta = readFields(r.metadata);
  return {
    ok: true,
    wal: { memberId: meta.varints.get(1) ?? 0n, clusterId: meta.varints.get(2) ?? 0n, hardState: r.hardState, marker: r.marker, entries: r.entries },
  };
}
