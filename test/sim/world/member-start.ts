/**
 * What a simulated member starts with, as the real bootstrap decides it: a founding member
 * of a new cluster starts from the founding conf-change entries (server/bootstrap/
 * bootstrap-entries.ts: the same on every founding member); a member joining an existing
 * cluster starts with no voters and learns the membership from the leader's log; a
 * restarting member starts with the voters and learners its backend lists as of its
 * applied index.
 */
import { bootstrapEntries } from '../../../server/bootstrap/bootstrap-entries.js';
import type { StartMembership } from '../../../server/member/member.js';
import type { Membership } from '../../../server/membership/membership.js';

/** The peer URL a simulated member advertises (only used as member data). */
export const peerUrlOf = (id: bigint): string => `http://m${id}:2380`;

/** How a member starts: first start of a founding or a joining member, or a restart. */
export type StartMode = 'founding' | 'joining' | 'restart';

export function startMembership(mode: StartMode, voters: readonly bigint[], membership: Membership): StartMembership {
  if (mode === 'joining') return { voters: [], learners: [], bootstrapEntries: [] };
  if (mode === 'founding') {
    return {
      voters: [],
      learners: [],
      bootstrapEntries: bootstrapEntries(voters.map((id) => ({ id, name: `m${id}`, peerUrls: [peerUrlOf(id)] }))),
    };
  }
  return {
    voters: membership.voters().map((m) => m.id),
    learners: membership.learners().map((m) => m.id),
    bootstrapEntries: [],
  };
}
