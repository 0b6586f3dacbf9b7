/**
 * Consensus messages ↔ peer-transport frames. A frame is one encoded RaftMessage
 * (proto/kvstore/raft.proto); the message kind travels by name so the table of kinds
 * can grow without renumbering. Decoding never throws: a malformed frame is an error value.
 *
 * Encoding: a message without a snapshot (every message but MsgSnap) is sized first and
 * written into one buffer with the WAL's allocation-free Entry encoder; the bytes are the
 * generated encoder's (a unit test compares them). MsgSnap uses the generated encoder.
 *
 * Decoding reads the frame with `ProtoReader`: terms and indexes go straight into numbers (a
 * value above 2^53 - 1 is a malformed frame), member ids into bigints, entry data is copied out
 * of the frame. A snapshot (MsgSnap only) is decoded by the generated decoder.
 */
import { RaftMessage, RaftSnapshot } from '../../proto/gen/kvstore/raft.js';
import { fail, ok, type Result } from '../errors/domain-error.js';
import { MessageType, type Entry, type Message, type Snapshot } from '../raft/index.js';
import { snapshotFromWire } from '../wal/log-replay.js';
import {
  entryBytes,
  indexFieldBytes,
  smallVarintBytes,
  uint64FieldBytes,
  writeEntry,
  writeIndexField,
  writeSmallVarint,
  writeUint64Field,
} from '../wal/proto-codec.js';
import { ProtoReader } from '../wal/proto-reader.js';
import { readEntry } from '../wal/entry-reader.js';

const KINDS: ReadonlySet<string> = new Set(Object.values(MessageType));

const LEN = 2;
const tag = (field: number, wire: number): number => (field << 3) | wire;

export function encodeMessage(m: Message): Buffer {
  return m.snapshot === undefined ? encodePlain(m) : encodeGenerated(m);
}

function encodePlain(m: Message): Buffer {
  const typeLen = m.type.length; // kind names are ASCII
  let size = typeLen === 0 ? 0 : 1 + smallVarintBytes(typeLen) + typeLen;
  size += uint64FieldBytes(m.to) + uint64FieldBytes(m.from) + indexFieldBytes(m.term);
  size += indexFieldBytes(m.logTerm) + indexFieldBytes(m.index) + indexFieldBytes(m.commit);
  size += indexFieldBytes(m.rejectHint) + (m.reject ? 2 : 0);
  if (m.context.length > 0) size += 1 + smallVarintBytes(m.context.length) + m.context.length;
  const n = m.entries.length;
  const lengths = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const len = entryBytes(m.entries[i]!);
    lengths[i] = len;
    size += 1 + smallVarintBytes(len) + len;
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  if (typeLen > 0) {
    out[at++] = tag(1, LEN);
    at = writeSmallVarint(out, at, typeLen);
    at += out.write(m.type, at, 'latin1');
  }
  at = writeUint64Field(out, at, 2, m.to);
  at = writeUint64Field(out, at, 3, m.from);
  at = writeIndexField(out, at, 4, m.term);
  at = writeIndexField(out, at, 5, m.logTerm);
  at = writeIndexField(out, at, 6, m.index);
  for (let i = 0; i < n; i++) {
    out[at++] = tag(7, LEN);
    at = writeSmallVarint(out, at, lengths[i]!);
    at = writeEntry(out, at, m.entries[i]!);
  }
  at = writeIndexField(out, at, 8, m.commit);
  if (m.reject) {
    out[at++] = tag(10, 0);
    out[at++] = 1;
  }
  at = writeIndexField(out, at, 11, m.rejectHint);
  if (m.context.length > 0) {
    out[at++] = tag(12, LEN);
    at = writeSmallVarint(out, at, m.context.length);
    at += m.context.copy(out, at);
  }
  if (at !== size) throw new Error(`peer message encoded as ${at} bytes, sized ${size}`);
  return out;
}

function encodeGenerated(m: Message): Buffer {
  const snap = m.snapshot;
  const bytes = RaftMessage.encode({
    type: m.type,
    to: m.to,
    from: m.from,
    term: BigInt(m.term),
    logTerm: BigInt(m.logTerm),
    index: BigInt(m.index),
    entries: m.entries.map((e) => ({ term: BigInt(e.term), index: BigInt(e.index), type: e.type, data: e.data })),
    commit: BigInt(m.commit),
    snapshot:
      snap === undefined
        ? undefined
        : {
            metadata: { index: BigInt(snap.metadata.index), term: BigInt(snap.metadata.term), confState: snap.metadata.confState },
            data: snap.data,
          },
    reject: m.reject,
    rejectHint: BigInt(m.rejectHint),
    context: m.context,
  }).finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const EMPTY = Buffer.alloc(0);

export function decodeMessage(frame: Buffer): Result<Message> {
  try {
    return readMessage(frame);
  } catch (e) {
    return fail({ kind: 'Internal', message: `malformed peer message: ${(e as Error).message}` });
  }
}

function readMessage(frame: Buffer): Result<Message> {
  const r = new ProtoReader(frame);
  let type = '';
  let to = 0n;
  let from = 0n;
  let term = 0;
  let logTerm = 0;
  let index = 0;
  const entries: Entry[] = [];
  let commit = 0;
  let snapshot: Snapshot | undefined;
  let reject = false;
  let rejectHint = 0;
  let context = EMPTY;
  while (!r.done()) {
    const tag = r.number();
    switch (tag) {
      case 10 /* 1 type, LEN */: {
        const f = r.lengthDelimited();
        type = frame.toString('latin1', f.start, f.end);
        break;
      }
      case 16 /* 2 to */:
        to = r.uint64();
        break;
      case 24 /* 3 from */:
        from = r.uint64();
        break;
      case 32 /* 4 term */:
        term = r.number();
        break;
      case 40 /* 5 logTerm */:
        logTerm = r.number();
        break;
      case 48 /* 6 index */:
        index = r.number();
        break;
      case 58 /* 7 entries, LEN */: {
        const f = r.lengthDelimited();
        const e = readEntry(new ProtoReader(frame, f.start, f.end));
        entries.push({ term: e.term, index: e.index, type: e.type, data: Buffer.from(e.data) });
        break;
      }
      case 64 /* 8 commit */:
        commit = r.number();
        break;
      case 74 /* 9 snapshot, LEN */: {
        const f = r.lengthDelimited();
        const raw = RaftSnapshot.decode(frame.subarray(f.start, f.end));
        snapshot = raw.metadata ? { metadata: snapshotFromWire(raw.metadata), data: raw.data } : undefined;
        break;
      }
      case 80 /* 10 reject */:
        reject = r.bool();
        break;
      case 88 /* 11 rejectHint */:
        rejectHint = r.number();
        break;
      case 98 /* 12 context, LEN */: {
        const f = r.lengthDelimited();
        context = Buffer.from(frame.subarray(f.start, f.end));
        break;
      }
      default:
        r.skip(tag & 7);
    }
  }
  if (!KINDS.has(type)) return fail({ kind: 'Internal', message: `unknown peer message kind ${JSON.stringify(type)}` });
  return ok({ type: type as MessageType, from, to, term, logTerm, index, entries, commit, snapshot, reject, rejectHint, context });
}

