/**
 * Consensus messages ↔ peer-transport frames. A frame is one encoded RaftMessage
 * (proto/kvstore/raft.proto); the message kind travels by name so the table of kinds
 * can grow without renumbering. Decoding never throws: a malformed frame is an error value.
 *
 * Encoding: a message without a snapshot (every message but MsgSnap) is sized first and
 * written into one buffer with the WAL's allocation-free Entry encoder; the bytes are the
 * generated encoder's (a unit test compares them). MsgSnap uses the generated encoder.
 */
import { RaftMessage } from '../../proto/gen/kvstore/raft.js';
import { fail, ok, type Result } from '../errors/domain-error.js';
import { MessageType, type Message } from '../raft/index.js';
import { entryBytes, smallVarintBytes, uint64FieldBytes, writeEntry, writeSmallVarint, writeUint64Field } from '../wal/proto-codec.js';

const KINDS: ReadonlySet<string> = new Set(Object.values(MessageType));

const LEN = 2;
const tag = (field: number, wire: number): number => (field << 3) | wire;

export function encodeMessage(m: Message): Buffer {
  return m.snapshot === undefined ? encodePlain(m) : encodeGenerated(m);
}

function encodePlain(m: Message): Buffer {
  const typeLen = m.type.length; // kind names are ASCII
  let size = typeLen === 0 ? 0 : 1 + smallVarintBytes(typeLen) + typeLen;
  size += uint64FieldBytes(m.to) + uint64FieldBytes(m.from) + uint64FieldBytes(m.term);
  size += uint64FieldBytes(m.logTerm) + uint64FieldBytes(m.index) + uint64FieldBytes(m.commit);
  size += uint64FieldBytes(m.rejectHint) + (m.reject ? 2 : 0);
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
  at = writeUint64Field(out, at, 4, m.term);
  at = writeUint64Field(out, at, 5, m.logTerm);
  at = writeUint64Field(out, at, 6, m.index);
  for (let i = 0; i < n; i++) {
    out[at++] = tag(7, LEN);
    at = writeSmallVarint(out, at, lengths[i]!);
    at = writeEntry(out, at, m.entries[i]!);
  }
  at = writeUint64Field(out, at, 8, m.commit);
  if (m.reject) {
    out[at++] = tag(10, 0);
    out[at++] = 1;
  }
  at = writeUint64Field(out, at, 11, m.rejectHint);
  if (m.context.length > 0) {
    out[at++] = tag(12, LEN);
    at = writeSmallVarint(out, at, m.context.length);
    at += m.context.copy(out, at);
  }
  if (at !== size) throw new Error(`peer message encoded as ${at} bytes, sized ${size}`);
  return out;
}

function encodeGenerated(m: Message): Buffer {
  const bytes = RaftMessage.encode({
    type: m.type,
    to: m.to,
    from: m.from,
    term: m.term,
    logTerm: m.logTerm,
    index: m.index,
    entries: [...m.entries],
    commit: m.commit,
    snapshot: m.snapshot,
    reject: m.reject,
    rejectHint: m.rejectHint,
    context: m.context,
  }).finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function decodeMessage(frame: Buffer): Result<Message> {
  let raw: RaftMessage;
  try {
    raw = RaftMessage.decode(frame);
  } catch (e) {
    return fail({ kind: 'Internal', message: `malformed peer message: ${(e as Error).message}` });
  }
  if (!KINDS.has(raw.type)) return fail({ kind: 'Internal', message: `unknown peer message kind ${JSON.stringify(raw.type)}` });
  const snapshot = raw.snapshot && raw.snapshot.metadata ? { metadata: raw.snapshot.metadata, data: raw.snapshot.data } : undefined;
  return ok({
    type: raw.type as MessageType,
    to: raw.to,
    from: raw.from,
    term: raw.term,
    logTerm: raw.logTerm,
    index: raw.index,
    entries: raw.entries,
    commit: raw.commit,
    snapshot,
    reject: raw.reject,
    rejectHint: raw.rejectHint,
    context: raw.context,
  });
}
