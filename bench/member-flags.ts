/**
 * The etcd-style flags both etcd and kvstore understand, for one member of a deployment that
 * bootstraps as a new cluster. Pure.
 */

export interface MemberAddress {
  /** Member name, unique in the deployment (`--name`). */
  readonly name: string;
  /** Loopback address the member binds, distinct per member. */
  readonly host: string;
  readonly clientPort: number;
  readonly peerPort: number;
}

export const clientUrl = (m: MemberAddress): string => `http://${m.host}:${m.clientPort}`;
export const peerUrl = (m: MemberAddress): string => `http://${m.host}:${m.peerPort}`;

/** Backend quota of every member: 8 GiB, the largest etcd accepts without a warning. */
const QUOTA_BYTES = 8 * 1024 ** 3;

/** Flags for `self`, one of `all` (the founding members, in order); `token` separates deployments. */
export function memberArgs(self: MemberAddress, all: readonly MemberAddress[], dataDir: string, token: string): string[] {
  return [
    '--name', self.name,
    '--data-dir', dataDir,
    '--listen-client-urls', clientUrl(self),
    '--advertise-client-urls', clientUrl(self),
    '--listen-peer-urls', peerUrl(self),
    '--initial-advertise-peer-urls', peerUrl(self),
    '--initial-cluster', all.map((m) => `${m.name}=${peerUrl(m)}`).join(','),
    '--initial-cluster-token', token,
    '--initial-cluster-state', 'new',
    // The large-value rows write gigabytes of history (nothing compacts during a run).
    '--quota-backend-bytes', String(QUOTA_BYTES),
  ];
}
