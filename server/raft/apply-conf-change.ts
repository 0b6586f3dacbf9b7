/**
 * Applying a committed membership change (called by the application when it applies an
 * ENTRY_CONF_CHANGE entry, on every member). Single-step changes only.
 *
 * Effects on a leader: a removed leader steps down (it no longer counts in any quorum); a
 * transfer to a node that is no longer a voter is aborted; a smaller quorum may commit at once;
 * a new member is probed at once (an empty MsgApp; it rejects until the leader finds where
 * their logs match).
 */
import type { ConfState } from './log-types.js';
import { ConfChangeType, type ConfChange } from './conf-change.js';
import { commitAndBroadcast } from './leader-commit.js';
import { hex, NONE, RaftState } from './raft-state.js';
import type { Raft } from './raft.js';
import { maybeSendAppend, sendAppend } from './replication.js';

export function applyConfChange(r: Raft, cc: ConfChange): ConfState {
  const id = cc.nodeId;
  const isNew = !r.tracker.progress.has(id);
  switch (cc.type) {
    case ConfChangeType.AddNode:
      r.tracker.addMember(id, false, r.log.lastIndex() + 1);
      break;
    case ConfChangeType.AddLearnerNode:
      if (r.tracker.isVoter(id)) r.logger.warn(`ignored demotion of voter ${hex(id)} to learner`);
      else r.tracker.addMember(id, true, r.log.lastIndex() + 1);
      break;
    case ConfChangeType.RemoveNode:
      r.tracker.removeMember(id);
      break;
  }
  r.logger.info(`${hex(r.id)} applied ${cc.type} ${hex(id)}`);
  if (r.state === RaftState.Leader) afterLeaderConfChange(r, isNew && r.tracker.progress.has(id) ? id : NONE);
  return r.tracker.confState();
}

function afterLeaderConfChange(r: Raft, added: bigint): void {
  if (!r.tracker.isVoter(r.id)) {
    r.logger.info(`${hex(r.id)} stepped down: removed from the voters`);
    r.becomeFollower(r.term, NONE);
    return;
  }
  if (r.leadTransferee !== NONE && !r.tracker.isVoter(r.leadTransferee)) r.abortLeaderTransfer();
  if (!commitAndBroadcast(r)) {
    for (const id of r.tracker.ids()) if (id !== r.id) maybeSendAppend(r, id, false);
  }
  // Probe a new member at once rather than at the next heartbeat.
  if (added !== NONE && added !== r.id) sendAppend(r, added);
}
