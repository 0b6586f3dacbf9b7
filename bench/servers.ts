/**
 * The two servers under test and where their members live: each member binds its own loopback
 * address, `<host prefix>.<net>.<i>` for member i (1-based), net 1 for etcd and 2 for kvstore.
 * The default prefix 127.77 keeps the bench off 127.0.0.x, where the tests place their members,
 * so a bench and a test run can share the machine; ports are picked free on each address.
 */

export const SERVER_NAMES = ['etcd', 'kvstore'] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

export interface ServerConfig {
  readonly name: ServerName;
  /** Executable and leading arguments, e.g. ['/usr/bin/etcd'] or [process.execPath, 'dist/server/main.js']. */
  readonly command: readonly string[];
  /** Extra flags appended after the common member flags. */
  readonly extraArgs: readonly string[];
  /** Extra environment variables of every member (added to the bench's own environment). */
  readonly extraEnv?: Readonly<Record<string, string>>;
  /** Directory for the members' logs (kept after the run). */
  readonly logDir: string;
  /** Prefix of the log file names (the run's timestamp). */
  readonly logPrefix: string;
  /** First two octets of the members' loopback addresses, e.g. `127.77`. */
  readonly hostPrefix: string;
}

export const DEFAULT_HOST_PREFIX = '127.77';

const NET: Readonly<Record<ServerName, number>> = { etcd: 1, kvstore: 2 };

/** Throws unless `prefix` is `127.<0-255>`. */
export function checkHostPrefix(prefix: string): string {
  const m = /^127\.(\d{1,3})$/.exec(prefix);
  if (m === null || Number(m[1]) > 255) throw new Error(`--host-prefix must look like 127.<0-255>, got ${prefix}`);
  return prefix;
}

/** Loopback address of each member of an `members`-member deployment of `server`. */
export function memberHosts(server: ServerName, members: number, hostPrefix: string): string[] {
  if (members > 254) throw new Error(`at most 254 members, got ${members}`);
  return Array.from({ length: members }, (_, i) => `${hostPrefix}.${NET[server]}.${i + 1}`);
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
