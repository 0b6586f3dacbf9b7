/**
 * The (pre-)candidate's step function: count votes; step down on hearing from a leader of the
 * current term. A pre-candidate that wins the pre-vote starts the real election.
 */
import { poll, winElection } from './election.js';
import { DONE, type RaftResult } from './errors.js';
import { handleAppendEntries, handleHeartbeat, handleSnapshot } from './follower-log.js';
import { holdProposal } from './held-proposals.js';
import { MessageType, type Message } from './message.js';
import { NONE, RaftState } from './raft-state.js';
import type { Raft } from './raft.js';
import { VoteResult } from './tracker.js';

export function stepCandidate(r: Raft, m: Message): RaftResult<void> {
  const myResponse = r.state === RaftState.PreCandidate ? MessageType.MsgPreVoteResp : MessageType.MsgVoteResp;
  switch (m.type) {
    case MessageType.MsgProp:
      return holdProposal(r, m, 'no leader');
    case MessageType.MsgApp:
      r.becomeFollower(m.term, m.from);
      handleAppendEntries(r, m);
      return DONE;
    case MessageType.MsgHeartbeat:
      r.becomeFollower(m.term, m.from);
      handleHeartbeat(r, m);
      return DONE;
    case MessageType.MsgSnap:
      r.becomeFollower(m.term, m.from);
      handleSnapshot(r, m);
      return DONE;
    case myResponse: {
      const result = poll(r, m.from, m.type, !m.reject);
      if (result === VoteResult.Won) winElection(r);
      else if (result === VoteResult.Lost) r.becomeFollower(r.term, NONE);
      return DONE;
    }
  }
  // MsgTimeoutNow, MsgReadIndex, MsgTransferLeader: no leader to act on them.
  return DONE;
}
