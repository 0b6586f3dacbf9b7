/**
 * What a leader does when its commit index may have moved: commit, serve the reads that were
 * waiting for a commit in this term, and tell followers the new commit index.
 */
import { releasePendingReadIndexMessages } from './leader-read.js';
import type { Raft } from './raft.js';
import { bcastAppend, maybeCommit } from './replication.js';

/** Returns whether the commit index advanced (followers were then sent a MsgApp). */
export function commitAndBroadcast(r: Raft): boolean {
  if (!maybeCommit(r)) return false;
  releasePendingReadIndexMessages(r);
  bcastAppend(r);
  return true;
}
