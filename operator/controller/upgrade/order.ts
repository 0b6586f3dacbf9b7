/**
 * Which member to roll next: among the members not yet running the target version, followers
 * first (lowest ordinal first), the leader last. A member that cannot say whether it leads is
 * treated as a follower. Pure.
 */
import type { ObservedMember } from '../model.js';
import { memberVersion } from '../context.js';

/** Members of `slots` that do not run `version` yet, in the order they should be rolled. */
export function rollOrder(slots: readonly ObservedMember[], version: string): readonly ObservedMember[] {
  const todo = slots.filter((m) => memberVersion(m) !== version);
  const followers = todo.filter((m) => m.probe?.isLeader !== true).sort((a, b) => a.ordinal - b.ordinal);
  const leaders = todo.filter((m) => m.probe?.isLeader === true);
  return [...followers, ...leaders];
}
