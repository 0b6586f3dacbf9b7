/** The roles a node can hold, and the id meaning "nobody". */
export const RaftState = {
  Follower: 'Follower',
  PreCandidate: 'PreCandidate',
  Candidate: 'Candidate',
  Leader: 'Leader',
} as const;
export type RaftState = (typeof RaftState)[keyof typeof RaftState];

/** No node: no leader known, no vote cast. */
export const NONE = 0n;

/** How ids appear in logs: hex, like etcd's member ids. */
export function hex(id: bigint): string {
  return id.toString(16);
}
