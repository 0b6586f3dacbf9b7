/**
 * Starting kvstore and real etcd members with etcd's flag names, alone or as a cluster.
 *
 * Both kinds get the same core flags: --name, --data-dir, --listen-client-urls,
 * --advertise-client-urls, --listen-peer-urls, --initial-advertise-peer-urls, --initial-cluster,
 * --initial-cluster-state (each on a fresh loopback host and free ports), then `args` verbatim.
 * kvstore runs as `node <build>/server/main.js`; etcd as /usr/bin/etcd with the zap logger.
 * The data dir defaults to a fresh temp dir; every member is owned by the registry (killed and
 * cleaned up when the test file ends).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { initialClusterOf, reserveAddress, type MemberAddress } from './addresses.js';
import { ETCD_BIN, KVSTORE_MAIN } from './paths.js';
import { makeTempDir } from './registry.js';
import { ServerProcess, type Member, type ServerKind } from './server-process.js';

/** Options of `startKvstore`, `startEtcd` and `startMember`. */
export interface StartOptions {
  /** Member name (default `<kind>-<n>`). */
  readonly name?: string;
  /** Extra flags, appended after the core flags (a repeated flag wins in both servers). */
  readonly args?: readonly string[];
  /** Extra environment variables. */
  readonly env?: Readonly<Record<string, string>>;
  /** Data directory (default: `<fresh temp dir>/<name>.data`). */
  readonly dataDir?: string;
  /** Loopback host to listen on (default: a fresh 127.0.0.x). Ignored when `address` is given. */
  readonly host?: string;
  /** Pre-reserved host and ports (see `reserveAddress`), for clusters. */
  readonly address?: MemberAddress;
  /** `--initial-cluster` (default: this member alone). */
  readonly initialCluster?: string;
  /** `--initial-cluster-state` (default `new`). */
  readonly initialClusterState?: 'new' | 'existing';
  /** Working directory of the process (default: the test's). */
  readonly cwd?: string;
  /** How long to wait for readiness (default 30 s). */
  readonly readyTimeoutMs?: number;
  /** Wait for readiness before resolving (default true). */
  readonly waitReady?: boolean;
}

let memberCounter = 0;

function coreFlags(a: MemberAddress, dataDir: string, initialCluster: string, state: string): string[] {
  return [
    `--name=${a.name}`,
    `--data-dir=${dataDir}`,
    `--listen-client-urls=${a.clientUrl}`,
    `--advertise-client-urls=${a.clientUrl}`,
    `--listen-peer-urls=${a.peerUrl}`,
    `--initial-advertise-peer-urls=${a.peerUrl}`,
    `--initial-cluster=${initialCluster}`,
    `--initial-cluster-state=${state}`,
  ];
}

/** Starts one member of `kind` and waits until it serves (see server-process.ts). */
export async function startMember(kind: ServerKind, opts: StartOptions = {}): Promise<Member> {
  const name = opts.address?.name ?? opts.name ?? `${kind}-${++memberCounter}`;
  const address = opts.address ?? (await reserveAddress(name, opts.host));
  const dataDir = opts.dataDir ?? join(makeTempDir(`${kind}-${name}`), `${name}.data`);
  const core = coreFlags(address, dataDir, opts.initialCluster ?? initialClusterOf([address]), opts.initialClusterState ?? 'new');
  const [command, prefix] = kind === 'kvstore' ? [process.execPath, [KVSTORE_MAIN]] : [ETCD_BIN, []];
  const kindFlags = kind === 'etcd' ? ['--logger=zap', '--log-outputs=stderr'] : [];
  const member = new ServerProcess({
    kind,
    address,
    dataDir,
    command,
    args: [...prefix, ...core, ...kindFlags, ...(opts.args ?? [])],
    env: { ...(opts.env ?? {}) },
    cwd: opts.cwd,
    readyTimeoutMs: opts.readyTimeoutMs ?? 30_000,
    waitReady: opts.waitReady ?? true,
  });
  await member.start();
  return member;
}

/** Starts one kvstore member (`node <build>/server/main.js …`). */
export function startKvstore(opts: StartOptions = {}): Promise<Member> {
  return startMember('kvstore', opts);
}

/** Starts one real etcd 3.4 member (/usr/bin/etcd …). */
export function startEtcd(opts: StartOptions = {}): Promise<Member> {
  return startMember('etcd', opts);
}

/** Options of `startCluster`: per-member options minus the address and cluster wiring. */
export type ClusterOptions = Omit<StartOptions, 'name' | 'address' | 'initialCluster' | 'initialClusterState' | 'dataDir' | 'host'> & {
  /** Member names (default `<kind>-c<i>`); its length wins over `size`. */
  readonly names?: readonly string[];
};

/** Starts `size` members of `kind` as one new cluster, concurrently, and waits until all serve. */
export async function startCluster(kind: ServerKind, size: number, opts: ClusterOptions = {}): Promise<Member[]> {
  const base = ++memberCounter;
  const names = opts.names ?? Array.from({ length: size }, (_, i) => `${kind}-c${base}-${i + 1}`);
  const addresses: MemberAddress[] = [];
  for (const name of names) addresses.push(await reserveAddress(name));
  const initialCluster = initialClusterOf(addresses);
  return Promise.all(addresses.map((address) => startMember(kind, { ...opts, address, initialCluster })));
}

/** The server kinds a black-box test runs against: E2E_SERVERS (comma list), default `kvstore,etcd`. */
export function serverKinds(): ServerKind[] {
  const raw = process.env.E2E_SERVERS ?? 'kvstore,etcd';
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s): s is ServerKind => s === 'kvstore' || s === 'etcd');
}

let cachedEtcdVersion: string | undefined;

/** The reference etcd's version, e.g. `3.4.23` (from `etcd --version`, read once). */
export function etcdVersion(): string {
  if (cachedEtcdVersion !== undefined) return cachedEtcdVersion;
  const out = execFileSync(ETCD_BIN, ['--version'], { encoding: 'utf8' });
  const m = /etcd Version: (\S+)/.exec(out);
  if (m === null) throw new Error(`cannot read the version from: ${out}`);
  cachedEtcdVersion = m[1];
  return cachedEtcdVersion;
}
