/**
 * The entry point for every message: the term rules shared by all roles (§5.1: a higher term
 * turns a node into a follower, a lower one is stale), leader lease and pre-vote exceptions,
 * campaigns and vote requests; everything else goes to the role's step function. After every
 * message, proposals held during a leadership transfer go to the leader if there is one now.
 */
import { CampaignType, handleVoteRequest, hup } from './election.js';
import { DONE, type RaftResult } from './errors.js';
import { releaseHeld } from './held-proposals.js';
import { CAMPAIGN_TRANSFER, MessageType, type Message } from './message.js';
import { hex, NONE } from './raft-state.js';
import type { Raft } from './raft.js';

export function step(r: Raft, m: Message): RaftResult<void> {
  const res = stepMessage(r, m);
  releaseHeld(r);
  return res;
}

function stepMessage(r: Raft, m: Message): RaftResult<void> {
  if (m.term > r.term && !higherTerm(r, m)) return DONE;
  if (m.term !== 0 && m.term < r.term) {
    lowerTerm(r, m);
    return DONE;
  }
  switch (m.type) {
    case MessageType.MsgHup:
      hup(r, r.preVote ? CampaignType.PreElection : CampaignType.Election);
      return DONE;
    case MessageType.MsgVote:
    case MessageType.MsgPreVote:
      handleVoteRequest(r, m);
      return DONE;
    default:
      return r.stepFn(r, m);
  }
}

/** Applies the term rules for m.term > r.term; returns false when the message must be ignored. */
function higherTerm(r: Raft, m: Message): boolean {
  const vote = m.type === MessageType.MsgVote || m.type === MessageType.MsgPreVote;
  if (vote) {
    // Leader lease (check-quorum): while a leader was heard from within the election timeout,
    // a vote request is a disruption, not a sign that the leader is gone.
    const forced = m.context.equals(CAMPAIGN_TRANSFER);
    const inLease = r.checkQuorum && r.lead !== NONE && r.electionElapsed < r.electionTicks;
    if (!forced && inLease) {
      r.logger.info(`${hex(r.id)} ignored ${m.type} from ${hex(m.from)} at term ${m.term}: leader lease`);
      return false;
    }
  }
  if (m.type === MessageType.MsgPreVote) return true; // never changes the term
  if (m.type === MessageType.MsgPreVoteResp && !m.reject) return true; // the term bump comes with the real election
  const fromLeader = m.type === MessageType.MsgApp || m.type === MessageType.MsgHeartbeat || m.type === MessageType.MsgSnap;
  r.logger.info(`${hex(r.id)} received ${m.type} at higher term ${m.term} from ${hex(m.from)}`);
  r.becomeFollower(m.term, fromLeader ? m.from : NONE);
  return true;
}

function lowerTerm(r: Raft, m: Message): void {
  if ((r.checkQuorum || r.preVote) && (m.type === MessageType.MsgHeartbeat || m.type === MessageType.MsgApp)) {
    // A stale leader (e.g. after a partition) would otherwise never learn of the new term, because
    // with check-quorum/pre-vote this node does not disrupt it by campaigning.
    r.send({ type: MessageType.MsgAppResp, to: m.from });
  } else if (m.type === MessageType.MsgPreVote) {
    // Tell the pre-candidate about the newer term so it stops campaigning.
    r.send({ type: MessageType.MsgPreVoteResp, to: m.from, term: r.term, reject: true });
  }
}
