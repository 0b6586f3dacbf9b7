/**
 * The version monitor: every interval, and on demand (`check()`: when this member becomes
 * leader, and on the leader when a member publishes its attributes or the membership changes)
 * it asks each other member's peer `/version` for its server version. A check asked for while
 * one runs is run right after it, never dropped.
 * - Every member logs, while versions differ: `the local kvstore version is not up-to-date`
 *   (this member is newer than the cluster version) and `a member has a higher version`
 *   (another member is newer than this one). Once all run the same version, both stop.
 * - The leader decides the cluster version (`nextClusterVersion`: the first one from the members
 *   that answered, each raise once every member answered) and proposes it through the log.
 */
import type { Logger } from 'pino';
import { formatId } from '../config/index.js';
import { getPeerJson, stringField } from '../peer/peer-get.js';
import type { PeerDialTls } from '../peer/peer-request.js';
import type { Result } from '../errors/domain-error.js';
import type { ClusterVersionState } from './cluster-version-state.js';
import { compareVersions, majorMinor, nextClusterVersion } from './versions.js';

export interface VersionMonitorDeps {
  readonly memberId: bigint;
  readonly serverVersion: string;
  readonly state: ClusterVersionState;
  /** The other members, their peer URLs and whether each has published its attributes. */
  readonly peers: () => readonly { readonly id: bigint; readonly peerURLs: readonly string[]; readonly started: boolean }[];
  readonly isLeader: () => boolean;
  readonly propose: (version: string) => Promise<Result<unknown>>;
  readonly intervalMs: number;
  readonly logger: Logger;
  /** Options for asking https peer URLs. */
  readonly peerTls?: PeerDialTls;
}

/** GET <peerUrl>/version → its `etcdserver` field, or undefined. */
export async function fetchServerVersion(peerUrl: string, timeoutMs: number, tls?: PeerDialTls): Promise<string | undefined> {
  return stringField((await getPeerJson(peerUrl, '/version', timeoutMs, tls))?.body, 'etcdserver');
}

async function versionOf(urls: readonly string[], tls: PeerDialTls): Promise<string | undefined> {
  for (const u of urls) {
    const v = await fetchServerVersion(u, 2000, tls);
    if (v !== undefined) return v;
  }
  return undefined;
}

export function startVersionMonitor(d: VersionMonitorDeps): { stop(): void; check(): void } {
  const log = d.logger;
  const local = majorMinor(d.serverVersion)!;
  let running = false;
  let again = false;
  let stopped = false;

  const round = async (): Promise<void> => {
    const peers = d.peers();
    const remote = await Promise.all(peers.map(async (p) => ({ id: p.id, started: p.started, version: await versionOf(p.peerURLs, d.peerTls) })));
    if (stopped) return;
    const current = d.state.current;
    if (current !== undefined && compareVersions(local, current) > 0) {
      log.warn({ 'local-member-version': d.serverVersion, 'cluster-version': current }, 'the local kvstore version is not up-to-date');
    }
    for (const r of remote) {
      const mm = r.version === undefined ? undefined : majorMinor(r.version);
      if (mm !== undefined && compareVersions(mm, local) > 0) {
        log.warn({ 'remote-member-id': formatId(r.id), 'remote-member-version': r.version }, 'a member has a higher version');
      }
    }
    if (!d.isLeader()) return;
    const change = nextClusterVersion(current, d.serverVersion, remote);
    if (change === undefined) return;
    if (change.kind === 'initial') log.info({ 'cluster-version': change.to }, 'setting up initial cluster version');
    else log.info({ from: change.from, to: change.to }, 'updating cluster version');
    const res = await d.propose(`${change.to}.0`);
    if (res.ok) log.info({ 'cluster-version': change.to }, 'cluster version is updated');
    else log.warn({ error: res }, 'failed to update cluster version');
  };

  const check = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    round()
      .catch((err: unknown) => log.warn({ err }, 'version check failed'))
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          check();
        }
      });
  };
  const timer = setInterval(check, d.intervalMs);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
    check,
  };
}
