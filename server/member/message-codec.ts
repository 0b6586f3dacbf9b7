/**
 * Consensus messages ↔ peer-transport frames. A frame is one encoded RaftMessage
 * (proto/kvstore/raft.proto); the message kind travels by name so the table of kinds
 * can grow without renumbering. Decoding never throws: a malformed frame is an error value.
 */
import { RaftMessage } from '../../proto/gen/kvstore/raft.js';
import { fail, ok, type Result } from '../errors/domain-error.js';
import { MessageType, type Message } from '../raft/index.js';

const KINDS: ReadonlySet<string> = new Set(Object.values(MessageType));

export function encodeMessage(m: Message): Buffer {
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
