/**
 * Leader → follower traffic: MsgApp (entries, probes, commit index), MsgSnap when the entries
 * a follower needs were compacted, heartbeats, MsgTimeoutNow. Flow control lives in Progress:
 * nothing is sent to a paused follower.
 */
import { RaftErrorKind } from './errors.js';
import { MessageType } from './message.js';
import type { Progress } from './progress.js';
import type { Raft } from './raft.js';

/** Sends a MsgApp (possibly empty: a probe or a commit update) to `to` unless it is paused. */
export function sendAppend(r: Raft, to: bigint): void {
  maybeSendAppend(r, to, true);
}

/**
 * Sends the entries `to` is missing, or a snapshot when they are compacted. With
 * `sendIfEmpty` false nothing is sent when there are no entries. Returns whether a message went out.
 */
export function maybeSendAppend(r: Raft, to: bigint, sendIfEmpty: boolean): boolean {
  const pr = r.tracker.progress.get(to);
  if (pr === undefined || pr.isPaused()) return false;
  const prevIndex = pr.next - 1;
  const prevTerm = r.log.term(prevIndex);
  const ents = r.log.entries(pr.next, r.maxSizePerMsg);
  if (!prevTerm.ok || !ents.ok) {
    const kind = !prevTerm.ok ? prevTerm.error.kind : !ents.ok ? ents.error.kind : undefined;
    if (kind !== RaftErrorKind.Compacted) throw new Error(`log unreadable at ${prevIndex} for ${to}: ${kind}`);
    return maybeSendSnapshot(r, to, pr);
  }
  if (ents.value.length === 0 && !sendIfEmpty) return false;
  r.send({
    type: MessageType.MsgApp,
    to,
    index: prevIndex,
    logTerm: prevTerm.value,
    entries: ents.value,
    commit: r.log.committed,
  });
  pr.sentEntries(ents.value.length > 0 ? ents.value[ents.value.length - 1]!.index : undefined);
  return true;
}

function maybeSendSnapshot(r: Raft, to: bigint, pr: Progress): boolean {
  if (!pr.recentActive) {
    r.logger.debug(`not sending a snapshot to inactive ${to.toString(16)}`);
    return false;
  }
  const snap = r.log.snapshot();
  if (!snap.ok) {
    if (snap.error.kind === RaftErrorKind.SnapshotTemporarilyUnavailable) return false;
    throw new Error(`snapshot unreadable: ${snap.error.kind}`);
  }
  const s = snap.value;
  if (s.metadata.index === 0) throw new Error('entries are compacted but the storage has no snapshot');
  r.send({ type: MessageType.MsgSnap, to, snapshot: s });
  pr.becomeSnapshot(s.metadata.index);
  r.logger.info(`sent snapshot ${s.metadata.index}/${s.metadata.term} to ${to.toString(16)}`);
  return true;
}

/** MsgApp to every other member. */
export function bcastAppend(r: Raft): void {
  for (const id of r.tracker.ids()) if (id !== r.id) sendAppend(r, id);
}

/** Heartbeat to every other member, carrying the newest pending read-index context. */
export function bcastHeartbeat(r: Raft): void {
  const ctx = r.readIndex.lastPendingContext();
  for (const id of r.tracker.ids()) if (id !== r.id) sendHeartbeat(r, id, ctx);
}

function sendHeartbeat(r: Raft, to: bigint, ctx: Buffer | undefined): void {
  const pr = r.tracker.progress.get(to)!;
  // The follower may not have the leader's entries up to `committed` yet: never commit past match.
  const commit = pr.match < r.log.committed ? pr.match : r.log.committed;
  r.send({ type: MessageType.MsgHeartbeat, to, commit, ...(ctx === undefined ? {} : { context: ctx }) });
}

export function sendTimeoutNow(r: Raft, to: bigint): void {
  r.send({ type: MessageType.MsgTimeoutNow, to });
}

/** Raises the commit index to what a quorum of voters stores, if that entry is of this term. */
export function maybeCommit(r: Raft): boolean {
  return r.log.maybeCommit(r.tracker.committed(), r.term);
}
