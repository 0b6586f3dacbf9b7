/**
 * The strict reconfiguration check (`--strict-reconfig-check`, on by default): whether a
 * member may add or remove a member without breaking the cluster's active quorum. Pure: the
 * caller passes the voters, what its peer transport knows and the clock.
 *
 * Decisions, as the reference server takes them, in this order:
 * - add a voter: refused with NotEnoughStartedMembers unless a quorum of the new voter set
 *   has started (published its attributes; a one-member cluster may always grow to two);
 * - add (voter OR learner): refused with Unhealthy unless the local member has been connected
 *   to every other voter for longer than the health interval (5 s);
 * - remove a learner: always allowed;
 * - remove a voter: refused with NotEnoughStartedMembers unless a quorum of the remaining
 *   voters has started; allowed when the removed member (not self) is not connected at all (a
 *   downed member is not part of the active quorum); otherwise the voters connected for the
 *   health interval (self counted) minus one must reach the quorum of the remaining voters,
 *   1 + floor((voters − 1) / 2), else Unhealthy.
 * Connectivity is checked only when `activeSince` is given (no transport view: no check).
 */

/** How long a peer must have been connected to count as healthy (etcd's HealthInterval). */
export const HEALTH_INTERVAL_MS = 5000;

export interface ReconfigVoter {
  readonly id: bigint;
  /** Whether the member has published its attributes (it has a name). */
  readonly started: boolean;
}

export interface ReconfigView {
  /** The local member. */
  readonly self: bigint;
  readonly voters: readonly ReconfigVoter[];
  /** Unix ms since which the outbound connection to a peer is up; undefined while down. */
  readonly activeSince?: (id: bigint) => number | undefined;
  /** Unix ms, the same clock as `activeSince`. */
  readonly now: number;
}

export type ReconfigVerdict =
  | { readonly kind: 'Ok' }
  | { readonly kind: 'NotEnoughStartedMembers' }
  /** `activePeers`: the voters (self included) connected for the health interval. */
  | { readonly kind: 'Unhealthy'; readonly activePeers: number };

const OK: ReconfigVerdict = { kind: 'Ok' };

/** Voters (self included) connected for longer than the health interval; undefined without a transport view. */
export function connectedVoters(view: ReconfigView): number | undefined {
  const { activeSince } = view;
  if (!activeSince) return undefined;
  const since = view.now - HEALTH_INTERVAL_MS;
  return view.voters.filter((v) => {
    if (v.id === view.self) return true;
    const t = activeSince(v.id);
    return t !== undefined && t < since;
  }).length;
}

/** May the local member add a member (a voter unless `isLearner`)? */
export function mayAddMember(view: ReconfigView, isLearner: boolean): ReconfigVerdict {
  if (!isLearner) {
    const members = view.voters.length + 1;
    const started = view.voters.filter((v) => v.started).length;
    const special = started === 1 && members === 2;
    if (!special && started < Math.floor(members / 2) + 1) return { kind: 'NotEnoughStartedMembers' };
  }
  const connected = connectedVoters(view);
  if (connected !== undefined && connected !== view.voters.length) return { kind: 'Unhealthy', activePeers: connected };
  return OK;
}

/** May the local member remove `target` (a member of the cluster)? */
export function mayRemoveMember(view: ReconfigView, target: { readonly id: bigint; readonly isLearner: boolean }): ReconfigVerdict {
  if (target.isLearner) return OK;
  const rest = view.voters.filter((v) => v.id !== target.id);
  const started = rest.filter((v) => v.started).length;
  if (started < Math.floor(rest.length / 2) + 1) return { kind: 'NotEnoughStartedMembers' };
  if (!view.activeSince) return OK;
  if (target.id !== view.self && view.activeSince(target.id) === undefined) return OK;
  const connected = connectedVoters(view) ?? view.voters.length;
  if (connected - 1 < 1 + Math.floor((view.voters.length - 1) / 2)) return { kind: 'Unhealthy', activePeers: connected };
  return OK;
}
