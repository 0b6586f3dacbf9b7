/**
 * Proposals that reach a leader while it hands leadership over are held instead of dropped:
 * when the transfer ends they go to whoever leads then — appended here if this node still
 * leads (the transfer was aborted), forwarded once this node follows the new leader. Forwarding
 * is what a follower does with any proposal, so no entry is duplicated: each held proposal is
 * released exactly once, or dropped.
 *
 * Bounds: at most MAX_HELD proposals (further ones are refused, as before), and for at most
 * two election timeouts of this node's ticks (then dropped, as a follower without a leader
 * drops them; their proposers time out).
 */
import { DONE, fail, RaftErrorKind, type RaftResult } from './errors.js';
import { MessageType, type Message } from './message.js';
import { hex, NONE, RaftState } from './raft-state.js';
import type { Raft } from './raft.js';

export const MAX_HELD = 4096;

/** Leader in transfer: keeps the proposal `m` for whoever leads next. */
export function holdProposal(r: Raft, m: Message): RaftResult<void> {
  if (r.held.length >= MAX_HELD) return fail(RaftErrorKind.ProposalDropped, 'leadership transfer in progress');
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
  r.logger.info(`${hex(r.id)} forwarded ${r.held.length} proposal(s) held during a leadership transfer to ${hex(r.lead)}`);
  r.held = [];
}

/** One tick of age for the held proposals; drops them after two election timeouts. */
export function ageHeld(r: Raft): void {
  if (r.held.length === 0) return;
  if (++r.heldTicks <= 2 * r.electionTicks) return;
  r.logger.info(`${hex(r.id)} dropped ${r.held.length} proposal(s) held during a leadership transfer: no leader`);
  r.held = [];
}
