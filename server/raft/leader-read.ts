/**
 * ReadIndex on the leader: a read is served at the commit index recorded when it arrived, once
 * (1) this leader has committed an entry of its own term (before that its commit index may lag
 * what earlier leaders committed) and (2) a quorum of voters has acknowledged a heartbeat sent
 * after the request arrived (so no newer leader existed at that moment).
 *
 * A request from this node itself (`from` NONE or own id) completes as a ReadState in the next
 * Ready; a request forwarded by a follower is answered with MsgReadIndexResp. Requests pending
 * when the leader steps down are dropped: the application times them out and retries.
 */
import { MessageType, type Message } from './message.js';
import { NONE } from './raft-state.js';
import type { Raft } from './raft.js';
import { bcastHeartbeat } from './replication.js';

export function handleReadIndex(r: Raft, m: Message): void {
  if (!r.committedEntryInCurrentTerm()) {
    r.pendingReadIndexMessages.push(m);
    return;
  }
  serveReadIndex(r, m);
}

function serveReadIndex(r: Raft, m: Message): void {
  r.readIndex.add(r.log.committed, m);
  const acks = r.readIndex.ack(r.id, m.context);
  if (acks !== undefined && r.tracker.hasQuorum(acks)) {
    // A single voter is its own quorum.
    for (const done of r.readIndex.release(m.context)) respond(r, done.request, done.index);
    return;
  }
  bcastHeartbeat(r);
}

/** A heartbeat response echoing a read context: releases the reads it confirms. */
export function handleReadAck(r: Raft, m: Message): void {
  if (m.context.length === 0) return;
  const acks = r.readIndex.ack(m.from, m.context);
  if (acks === undefined || !r.tracker.hasQuorum(acks)) return;
  for (const done of r.readIndex.release(m.context)) respond(r, done.request, done.index);
}

/** Serves the reads that waited for this leader's first commit in its term. */
export function releasePendingReadIndexMessages(r: Raft): void {
  if (r.pendingReadIndexMessages.length === 0 || !r.committedEntryInCurrentTerm()) return;
  const waiting = r.pendingReadIndexMessages;
  r.pendingReadIndexMessages = [];
  for (const m of waiting) serveReadIndex(r, m);
}

function respond(r: Raft, request: Message, index: number): void {
  if (request.from === NONE || request.from === r.id) {
    r.readStates.push({ index, requestCtx: request.context });
  } else {
    r.send({ type: MessageType.MsgReadIndexResp, to: request.from, index, context: request.context });
  }
}
