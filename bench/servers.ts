/**
 * The two servers under test and where their members live: each member binds its own loopback
 * address. A single member keeps the historic addresses (etcd 127.0.0.2, kvstore 127.0.0.3);
 * member i (1-based) of a cluster binds 127.0.<net>.<i> (etcd net 1, kvstore net 2).
 */

export const SERVER_NAMES = ['etcd', 'kvstore'] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

export interface ServerConfig {
  readonly name: ServerName;
  /** Executable and leading arguments, e.g. ['/usr/bin/etcd'] or [process.execPath, 'dist/server/main.js']. */
  readonly command: readonly string[];
  /** Extra flags appended after the common member flags. */
  readonly extraArgs: readonly string[];
  /** Directory for the members' logs (kept after the run). */
  readonly logDir: string;
  /** Prefix of the log file names (the run's timestamp). */
  readonly logPrefix: string;
}

const ADDRESSES: Readonly<Record<ServerName, { readonly single: string; readonly clusterNet: number }>> = {
  etcd: { single: '127.0.0.2', clusterNet: 1 },
  kvstore: { single: '127.0.0.3', clusterNet: 2 },
};

/** Loopback address of each member of an `members`-member deployment of `server`. */
export function memberHosts(server: ServerName, members: number): string[] {
  if (members === 1) return [ADDRESSES[server].single];
  if (members > 254) throw new Error(`at most 254 members, got ${members}`);
  return Array.from({ length: members }, (_, i) => `127.0.${ADDRESSES[server].clusterNet}.${i + 1}`);
}

/** Member names: `bench-<server>` alone, `bench-<server>-<i>` (1-based) in a cluster. */
export function memberNames(server: ServerName, members: number): string[] {
  if (members === 1) return [`bench-${server}`];
  return Array.from({ length: members }, (_, i) => `bench-${server}-${i + 1}`);
}

/** Log file name of a member: `<prefix>-<member name minus "bench-">.log`. */
export function logFileName(cfg: ServerConfig, member: string): string {
  return `${cfg.logPrefix}-${member.replace(/^bench-/, '')}.log`;
}
