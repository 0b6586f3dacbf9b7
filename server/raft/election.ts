/**
 * Elections (§5.2) with the pre-vote extension (thesis §9.6): campaigning, vote counting, and how
 * a node answers a vote request.
 *
 * A pre-vote asks "would you vote for me at term+1?" without anyone changing term, so a node
 * that was partitioned away cannot disrupt a healthy leader when it comes back. A transfer
 * campaign (after MsgTimeoutNow) skips the pre-vote and is granted even inside a leader lease.
 */
import { EntryType } from './log-types.js';
import { CAMPAIGN_TRANSFER, MessageType, type Message } from './message.js';
import { hex, NONE, RaftState } from './raft-state.js';
import type { Raft } from './raft.js';
import { bcastAppend } from './replication.js';
import { VoteResult } from './tracker.js';

export const CampaignType = { PreElection: 'PreElection', Election: 'Election', Transfer: 'Transfer' } as const;
export type CampaignType = (typeof CampaignType)[keyof typeof CampaignType];

/** Starts a campaign if this node may: not leader, a voter, no committed conf change left to apply. */
export function hup(r: Raft, t: CampaignType): void {
  if (r.state === RaftState.Leader) {
    r.logger.debug(`${hex(r.id)} ignored MsgHup: already leader`);
    return;
  }
  if (!r.promotable()) {
    r.logger.warn(`${hex(r.id)} is not a voter and cannot campaign`);
    return;
  }
  if (hasUnappliedConfChange(r)) {
    r.logger.warn(`${hex(r.id)} cannot campaign at term ${r.term}: a committed conf change is not applied yet`);
    return;
  }
  campaign(r, t);
}

function hasUnappliedConfChange(r: Raft): boolean {
  if (r.log.committed <= r.log.applied) return false;
  const ents = r.log.slice(r.log.applied + 1, r.log.committed + 1, Number.MAX_SAFE_INTEGER);
  return ents.ok && ents.value.some((e) => e.type === EntryType.ENTRY_CONF_CHANGE);
}

function campaign(r: Raft, t: CampaignType): void {
  const pre = t === CampaignType.PreElection;
  if (pre) r.becomePreCandidate();
  else r.becomeCandidate();
  const voteType = pre ? MessageType.MsgPreVote : MessageType.MsgVote;
  // A pre-vote asks for the term the real election would use.
  const term = pre ? r.term + 1 : r.term;
  if (poll(r, r.id, pre ? MessageType.MsgPreVoteResp : MessageType.MsgVoteResp, true) === VoteResult.Won) {
    winElection(r);
    return;
  }
  const index = r.log.lastIndex();
  const logTerm = r.log.lastTerm();
  for (const id of [...r.tracker.voters].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (id === r.id) continue;
    r.send({ type: voteType, to: id, term, index, logTerm, ...(t === CampaignType.Transfer ? { context: CAMPAIGN_TRANSFER } : {}) });
  }
}

/** Records a (pre-)vote and returns the election's outcome so far. */
export function poll(r: Raft, from: bigint, type: string, granted: boolean): VoteResult {
  r.tracker.recordVote(from, granted);
  const { granted: g, rejected, result } = r.tracker.tallyVotes();
  r.logger.debug(`${hex(r.id)} got ${granted ? 'a grant' : 'a rejection'} (${type}) from ${hex(from)}: ${g} granted, ${rejected} rejected`);
  return result;
}

/** A won pre-election starts the real one; a won election makes this node leader. */
export function winElection(r: Raft): void {
  if (r.state === RaftState.PreCandidate) {
    campaign(r, CampaignType.Election);
    return;
  }
  r.becomeLeader();
  bcastAppend(r);
}

/** Answers MsgVote / MsgPreVote (§5.2, §5.4.1). The term rules were applied by `step` already. */
export function handleVoteRequest(r: Raft, m: Message): void {
  const pre = m.type === MessageType.MsgPreVote;
  const response = pre ? MessageType.MsgPreVoteResp : MessageType.MsgVoteResp;
  const canVote =
    r.vote === m.from ||
    (r.vote === NONE && r.lead === NONE) ||
    // A pre-vote for a later term does not bind this node.
    (pre && m.term > r.term);
  if (canVote && r.log.isUpToDate(m.index, m.logTerm)) {
    // A grant carries the requested term so the candidate counts it; a pre-vote grant changes nothing here.
    r.send({ type: response, to: m.from, term: m.term });
    if (!pre) {
      r.electionElapsed = 0;
      r.vote = m.from;
    }
  } else {
    r.send({ type: response, to: m.from, term: r.term, reject: true });
  }
}
