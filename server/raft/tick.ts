/**
 * Logical time. Followers and candidates count towards an election timeout (randomized per
 * term from the injected rng); leaders count towards heartbeats, check-quorum rounds and the
 * leadership-transfer deadline (one election timeout).
 */
import { ageHeld, releaseHeld } from './held-proposals.js';
import { message, MessageType } from './message.js';
import { NONE, RaftState } from './raft-state.js';
import type { Raft } from './raft.js';
import { step } from './step.js';

export function tick(r: Raft): void {
  if (r.tickKind === 'heartbeat') tickHeartbeat(r);
  else tickElection(r);
  ageHeld(r);
  releaseHeld(r);
}

function tickElection(r: Raft): void {
  r.electionElapsed++;
  if (r.promotable() && r.pastElectionTimeout()) {
    r.electionElapsed = 0;
    step(r, message({ type: MessageType.MsgHup, from: r.id }));
  }
}

function tickHeartbeat(r: Raft): void {
  r.heartbeatElapsed++;
  r.electionElapsed++;
  if (r.electionElapsed >= r.electionTicks) {
    r.electionElapsed = 0;
    if (r.checkQuorum) step(r, message({ type: MessageType.MsgCheckQuorum, from: r.id }));
    if (r.state === RaftState.Leader && r.leadTransferee !== NONE) {
      r.logger.info(`${r.id.toString(16)} aborted the transfer to ${r.leadTransferee.toString(16)}: election timeout`);
      r.abortLeaderTransfer();
    }
  }
  if (r.state !== RaftState.Leader) return;
  if (r.heartbeatElapsed >= r.heartbeatTicks) {
    r.heartbeatElapsed = 0;
    step(r, message({ type: MessageType.MsgBeat, from: r.id }));
  }
}
