/**
 * Cluster-version arithmetic (pure). Versions here are `major.minor` strings ("3.4"); server
 * versions `major.minor.patch` are truncated first. The cluster version is the lowest
 * member version; it only moves up, except where a downgrade is explicitly allowed.
 */
export const MIN_CLUSTER_VERSION = '3.0';

/** `3.4.7` → `3.4`; undefined when the text is not a version. */
export function majorMinor(version: string): string | undefined {
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(version);
  return m ? `${m[1]}.${m[2]}` : undefined;
}

/** Orders two `major.minor` versions: negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  const [am, an] = a.split('.').map(Number) as [number, number];
  const [bm, bn] = b.split('.').map(Number) as [number, number];
  return am !== bm ? am - bm : an - bn;
}

/**
 * The version the members agree on: the lowest of their server versions, or undefined when
 * some member's version is unknown (unreachable or unparsable).
 */
export function decideVersion(memberVersions: readonly (string | undefined)[]): string | undefined {
  let lowest: string | undefined;
  for (const v of memberVersions) {
    const mm = v === undefined ? undefined : majorMinor(v);
    if (mm === undefined) return undefined;
    if (lowest === undefined || compareVersions(mm, lowest) < 0) lowest = mm;
  }
  return lowest;
}

export type VersionChange =
  | { readonly kind: 'initial'; readonly to: string }
  | { readonly kind: 'update'; readonly from: string; readonly to: string };

/** What the leader learnt of one other member at a check. */
export interface PeerVersion {
  /** Its server version (`etcdserver` of its peer `/version`); undefined when it could not be asked. */
  readonly version: string | undefined;
  /** Whether it has published its attributes through the log (it has run in this cluster). */
  readonly started: boolean;
}

/**
 * What the leader (server version `local`) should propose, given the other members.
 *
 * No cluster version yet (a new cluster): the lowest version among the leader and the members
 * that answered. A member that never started (it has not published its attributes) and cannot
 * be asked does not hold the decision back: it checks the cluster version itself when it
 * starts (a binary below it refuses to run). A member that did start but cannot be asked now
 * may run any version, so the decision is then the minimum (3.0), raised once every member
 * answers.
 *
 * A cluster version already set: only a raise within the same major, once every member
 * answered and the lowest of them is above it.
 */
export function nextClusterVersion(current: string | undefined, local: string, peers: readonly PeerVersion[]): VersionChange | undefined {
  if (current === undefined) {
    if (peers.some((p) => p.version === undefined && p.started)) return { kind: 'initial', to: MIN_CLUSTER_VERSION };
    const known = peers.flatMap((p) => (p.version === undefined ? [] : [p.version]));
    return { kind: 'initial', to: decideVersion([local, ...known]) ?? MIN_CLUSTER_VERSION };
  }
  const decided = decideVersion([local, ...peers.map((p) => p.version)]);
  if (decided === undefined) return undefined;
  if (decided.split('.')[0] !== current.split('.')[0]) return undefined;
  return compareVersions(decided, current) > 0 ? { kind: 'update', from: current, to: decided } : undefined;
}

/**
 * Whether a binary at `local` may run in a cluster at version `cluster`: not below it, and
 * at most one minor above it (a rolling upgrade moves one minor at a time). The initial
 * 3.0 of a cluster that has not been raised yet admits any version.
 */
export function joinProblem(local: string, cluster: string): string | undefined {
  // 3.0 is where every cluster starts before the leader raises it: no line to compare against.
  if (cluster === MIN_CLUSTER_VERSION) return undefined;
  if (compareVersions(local, cluster) < 0) return `cluster version ${cluster}.0 is higher than this member's version ${local}`;
  const [lm, ln] = local.split('.').map(Number) as [number, number];
  const [cm, cn] = cluster.split('.').map(Number) as [number, number];
  if (lm !== cm || ln > cn + 1) return `this member's version ${local} is more than one minor version ahead of the cluster version ${cluster}.0; upgrade the cluster through each minor version in turn`;
  return undefined;
}
