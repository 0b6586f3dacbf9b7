/**
 * Proposals that find no leader to take them are held instead of dropped: at a leader handing
 * leadership over, at a follower that knows no leader (an election is running), at a
 * (pre-)candidate. They go to whoever leads next — appended here if this node leads (a transfer
 * was aborted, or it won the election), forwarded once this node follows a leader. Forwarding
 * is what a follower does with any proposal, so no entry is duplicated: each held proposal is
 * released exactly once, or dropped.
 *
 * Bounds: at most MAX_HELD proposals (further ones are refused at once), and for at most two
 * election timeouts of this node's ticks. Then they are dropped; the entries of this node's
 * own dropped proposals are handed to the application in the next Ready
 * (`droppedProposals`), so their proposers learn at once that no leader took them.
 */
import { DONE, fail, RaftErrorKind, type RaftResult } from './errors.js';
import { MessageType, type Message } from './message.js';
import { hex, NONE, RaftState } from './raft-state.js';
import type { Raft } from './raft.js';

export const MAX_HELD = 4096;

/** Keeps the proposal `m` for whoever leads next; `why` names the refusal when too many wait. */
export function holdProposal(r: Raft, m: Message, why: string): RaftResult<void> {
  if (r.held.length >= MAX_HELD) return fail(RaftErrorKind.ProposalDropped, why);
  if (r.held.length === 0) r.heldTicks = 0;
  r.held.push(m);
  return DONE;
}

/** Hands the held proposals to the current leader once there is one and no transfer runs. */
export function releaseHeld(r: Raft): void {
  if (r.held.length === 0) return;
  if (r.state === RaftState.Leader) {
    if (r.leadTransferee !== NONE) return;
    const held = r.held;
    r.held = [];
    // Refusals now (e.g. this leader was removed) drop the proposal: its proposer times out.
    for (const m of held) r.stepFn(r, m);
    return;
  }
  if (r.state !== RaftState.Follower || r.lead === NONE) return;
  for (const m of r.held) r.send({ type: MessageType.MsgProp, to: r.lead, entries: m.entries });
  r.logger.info(`${hex(r.id)} forwarded ${r.held.length} held proposal(s) to ${hex(r.lead)}`);
  r.held = [];
}

/** One tick of age for the held proposals; drops them after two election timeouts. */
export function ageHeld(r: Raft): void {
  if (r.held.length === 0) return;
  if (++r.heldTicks <= 2 * r.electionTicks) return;
  r.logger.info(`${hex(r.id)} dropped ${r.held.length} held proposal(s): no leader took them`);
  for (const m of r.held) if (m.from === r.id) r.droppedProposals.push(...m.entries);
  r.held = [];
}
