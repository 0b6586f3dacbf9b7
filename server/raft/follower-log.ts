/**
 * How a follower (or a candidate that just learned of a leader) takes the leader's log:
 * MsgApp (append after a matching entry, else reject with a hint), MsgHeartbeat (commit what it
 * already matches) and MsgSnap (replace the log with a snapshot).
 */
import { MessageType, type Message } from './message.js';
import { RaftState } from './raft-state.js';
import type { Raft } from './raft.js';
import { confStateOf, type Snapshot } from './snapshot.js';

export function handleAppendEntries(r: Raft, m: Message): void {
  if (m.index < r.log.committed) {
    // Already committed here: tell the leader where we are.
    r.send({ type: MessageType.MsgAppResp, to: m.from, index: r.log.committed });
    return;
  }
  const lastNew = r.log.maybeAppend(m.index, m.logTerm, m.commit, m.entries);
  if (lastNew !== undefined) {
    r.send({ type: MessageType.MsgAppResp, to: m.from, index: lastNew });
    return;
  }
  // No entry (m.index, m.logTerm) here. Hint the leader at the last entry that may match: the
  // largest index <= m.index whose term is <= m.logTerm.
  const last = r.log.lastIndex();
  const hint = r.log.findConflictByTerm(m.index < last ? m.index : last, m.logTerm);
  r.send({ type: MessageType.MsgAppResp, to: m.from, index: m.index, reject: true, rejectHint: hint.index, logTerm: hint.term });
}

export function handleHeartbeat(r: Raft, m: Message): void {
  // The leader sends min(match, committed): a commit past this log's end means this node lost
  // entries it acknowledged, and commitTo throws (as etcd panics) rather than vote with amnesia.
  r.log.commitTo(m.commit);
  r.send({ type: MessageType.MsgHeartbeatResp, to: m.from, context: m.context });
}

export function handleSnapshot(r: Raft, m: Message): void {
  const s = m.snapshot;
  if (s === undefined) {
    r.logger.warn(`ignored MsgSnap without a snapshot from ${m.from.toString(16)}`);
    return;
  }
  if (restore(r, s)) {
    r.logger.info(`restored snapshot ${s.metadata.index}/${s.metadata.term}`);
    r.send({ type: MessageType.MsgAppResp, to: m.from, index: r.log.lastIndex() });
  } else {
    r.send({ type: MessageType.MsgAppResp, to: m.from, index: r.log.committed });
  }
}

/**
 * Installs `s` unless the log already has it. Returns true when the log was replaced (the next
 * Ready carries the snapshot); false when it was stale, or when the log already holds its last
 * entry (then only the commit index moves).
 */
function restore(r: Raft, s: Snapshot): boolean {
  const { index, term } = s.metadata;
  if (index <= r.log.committed) return false;
  if (r.state !== RaftState.Follower) throw new Error(`${r.state} cannot restore a snapshot`);
  if (r.log.matchTerm(index, term)) {
    r.log.commitTo(index);
    return false;
  }
  const cs = confStateOf(s);
  if (!cs.voters.includes(r.id) && !cs.learners.includes(r.id)) {
    // Committed state all the same; this node learns of its own addition from later entries.
    r.logger.warn(`${r.id.toString(16)} restores snapshot ${index} whose membership does not include it`);
  }
  r.log.restore(s);
  r.tracker.voters.clear();
  r.tracker.learners.clear();
  r.tracker.progress.clear();
  const next = r.log.lastIndex() + 1;
  for (const id of cs.voters) r.tracker.addMember(id, false, next);
  for (const id of cs.learners) r.tracker.addMember(id, true, next);
  return true;
}
