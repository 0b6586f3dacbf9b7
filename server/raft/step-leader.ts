/**
 * The leader's step function: proposals, read requests, heartbeats, check-quorum, and the
 * follower responses that drive replication (commit by quorum, flow control, leadership transfer).
 */
import { EntryType } from './log-types.js';
import { DONE, fail, RaftErrorKind, type RaftResult } from './errors.js';
import { commitAndBroadcast } from './leader-commit.js';
import { holdProposal } from './held-proposals.js';
import { handleReadAck, handleReadIndex } from './leader-read.js';
import { MessageType, type Message } from './message.js';
import { ProgressState, type Progress } from './progress.js';
import { NONE } from './raft-state.js';
import type { Raft } from './raft.js';
import { bcastAppend, bcastHeartbeat, maybeSendAppend, sendAppend, sendTimeoutNow } from './replication.js';

export function stepLeader(r: Raft, m: Message): RaftResult<void> {
  switch (m.type) {
    case MessageType.MsgBeat:
      bcastHeartbeat(r);
      return DONE;
    case MessageType.MsgCheckQuorum:
      checkQuorum(r);
      return DONE;
    case MessageType.MsgProp:
      return propose(r, m);
    case MessageType.MsgReadIndex:
      handleReadIndex(r, m);
      return DONE;
  }
  const pr = r.tracker.progress.get(m.from);
  if (pr === undefined) return DONE;
  switch (m.type) {
    case MessageType.MsgAppResp:
      handleAppendResponse(r, m, pr);
      break;
    case MessageType.MsgHeartbeatResp:
      pr.recentActive = true;
      pr.probeSent = false;
      // Messages may have been lost: free a slot so the stream can resume (a gap is then rejected and probed).
      if (pr.state === ProgressState.Replicate && pr.inflights.full()) pr.inflights.freeFirst();
      if (pr.match < r.log.lastIndex() || pr.state === ProgressState.Probe) sendAppend(r, m.from);
      handleReadAck(r, m);
      break;
    case MessageType.MsgSnapStatus:
      if (pr.state !== ProgressState.Snapshot) break;
      if (m.reject) pr.pendingSnapshot = 0;
      pr.becomeProbe();
      // Wait for the follower's next response before probing.
      pr.probeSent = true;
      break;
    case MessageType.MsgUnreachable:
      if (pr.state === ProgressState.Replicate) pr.becomeProbe();
      break;
    case MessageType.MsgTransferLeader:
      transferLeader(r, m.from, pr);
      break;
  }
  return DONE;
}

function checkQuorum(r: Raft): void {
  if (!r.tracker.quorumActive(r.id)) {
    r.logger.warn(`${r.id.toString(16)} stepped down: quorum not active`);
    r.becomeFollower(r.term, NONE);
    return;
  }
  for (const [id, pr] of r.tracker.progress) if (id !== r.id) pr.recentActive = false;
}

function propose(r: Raft, m: Message): RaftResult<void> {
  if (m.entries.length === 0) throw new Error('empty proposal');
  if (!r.tracker.progress.has(r.id)) return fail(RaftErrorKind.ProposalDropped, 'leader was removed from the cluster');
  if (r.leadTransferee !== NONE) return holdProposal(r, m, 'leadership transfer in progress');
  const confChanges = m.entries.filter((e) => e.type === EntryType.ENTRY_CONF_CHANGE).length;
  if (confChanges > 0) {
    if (confChanges > 1) return fail(RaftErrorKind.ProposalDropped, 'one conf change at a time');
    if (r.pendingConfIndex > r.log.applied) return fail(RaftErrorKind.ProposalDropped, 'a conf change is not applied yet');
  }
  const before = r.log.lastIndex();
  r.appendEntries(m.entries);
  if (confChanges > 0) {
    const at = m.entries.findIndex((e) => e.type === EntryType.ENTRY_CONF_CHANGE);
    r.pendingConfIndex = before + 1 + at;
  }
  bcastAppend(r);
  return DONE;
}

function handleAppendResponse(r: Raft, m: Message, pr: Progress): void {
  pr.recentActive = true;
  if (m.reject) {
    // Skip the follower's whole divergent term when it told us which one it has at the hint.
    const hint = m.logTerm > 0 ? r.log.findConflictByTerm(m.rejectHint, m.logTerm).index : m.rejectHint;
    if (pr.maybeDecrTo(m.index, hint)) {
      if (pr.state === ProgressState.Replicate) pr.becomeProbe();
      sendAppend(r, m.from);
    }
    return;
  }
  const wasPaused = pr.isPaused();
  // An acknowledged probe at the current match also proves where the logs match.
  if (!pr.maybeUpdate(m.index) && !(pr.match === m.index && pr.state === ProgressState.Probe)) return;
  if (pr.state === ProgressState.Probe) {
    pr.becomeReplicate();
  } else if (pr.state === ProgressState.Snapshot && pr.match + 1 >= r.log.firstIndex()) {
    pr.becomeProbe();
    pr.becomeReplicate();
  } else if (pr.state === ProgressState.Replicate) {
    pr.inflights.freeLE(m.index);
  }
  if (!commitAndBroadcast(r) && wasPaused) sendAppend(r, m.from);
  // Pipelining: keep streaming while the window has room and entries remain.
  while (maybeSendAppend(r, m.from, false));
  if (m.from === r.leadTransferee && pr.match === r.log.lastIndex()) {
    r.logger.info(`sent MsgTimeoutNow to ${m.from.toString(16)}: its log is up to date`);
    sendTimeoutNow(r, m.from);
  }
}

/** Hands leadership to `transferee` once its log is up to date; proposals are held meanwhile. */
function transferLeader(r: Raft, transferee: bigint, pr: Progress): void {
  if (pr.isLearner) {
    r.logger.debug(`ignored transfer to learner ${transferee.toString(16)}`);
    return;
  }
  if (r.leadTransferee !== NONE) {
    if (r.leadTransferee === transferee) return;
    r.abortLeaderTransfer();
  }
  if (transferee === r.id) return;
  // The transfer must finish within one election timeout (tickHeartbeat aborts it).
  r.electionElapsed = 0;
  r.leadTransferee = transferee;
  if (pr.match === r.log.lastIndex()) sendTimeoutNow(r, transferee);
  else sendAppend(r, transferee);
}
