/**
 * The follower's step function: accept the leader's log, forward proposals, read requests and
 * transfer requests to the leader, campaign at once on MsgTimeoutNow.
 */
import { CampaignType, hup } from './election.js';
import { DONE, type RaftResult } from './errors.js';
import { handleAppendEntries, handleHeartbeat, handleSnapshot } from './follower-log.js';
import { holdProposal } from './held-proposals.js';
import { MessageType, type Message } from './message.js';
import { NONE } from './raft-state.js';
import type { Raft } from './raft.js';

export function stepFollower(r: Raft, m: Message): RaftResult<void> {
  switch (m.type) {
    case MessageType.MsgProp:
      if (r.lead === NONE) return holdProposal(r, m, 'no leader');
      r.send({ type: MessageType.MsgProp, to: r.lead, entries: m.entries });
      return DONE;
    case MessageType.MsgApp:
      r.electionElapsed = 0;
      r.lead = m.from;
      handleAppendEntries(r, m);
      return DONE;
    case MessageType.MsgHeartbeat:
      r.electionElapsed = 0;
      r.lead = m.from;
      handleHeartbeat(r, m);
      return DONE;
    case MessageType.MsgSnap:
      r.electionElapsed = 0;
      r.lead = m.from;
      handleSnapshot(r, m);
      return DONE;
    case MessageType.MsgTransferLeader:
      if (r.lead === NONE) return DONE;
      // `from` names the transferee; keep it when forwarding.
      r.msgs.push({ ...m, to: r.lead, term: 0 });
      return DONE;
    case MessageType.MsgTimeoutNow:
      // Leadership transfer: campaign at once, skipping pre-vote and any leader lease.
      hup(r, CampaignType.Transfer);
      return DONE;
    case MessageType.MsgReadIndex:
      if (r.lead === NONE) return DONE;
      r.send({ type: MessageType.MsgReadIndex, to: r.lead, context: m.context });
      return DONE;
    case MessageType.MsgReadIndexResp:
      r.readStates.push({ index: m.index, requestCtx: m.context });
      return DONE;
  }
  return DONE;
}
