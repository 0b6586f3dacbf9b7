/**
 * `MemberAdmin` over real members: HTTP(S) for /version, /health, /metrics and the typed etcd
 * client (ctl/client, the one kvstorectl uses) for the gRPC calls and the snapshot, both with
 * the cluster's `MemberAccess` (TLS client certificate, root credentials) when it has one.
 *
 * Contract: see ports.ts. Clients are kept per member URL until `close()`. A URL mapped to another
 * address may carry the TLS server name to verify (dial-target.ts).
 */
import type { MemberAccess, MemberAdmin } from '../ports.js';
import { ClientPool } from './client-pool.js';
import { GrpcCalls } from './grpc-calls.js';
import { dialTarget } from './dial-target.js';
import { fetchHealth, fetchMetrics, fetchVersion, type HttpTls } from './http-probes.js';
import { snapshotToFile } from './snapshot-to-file.js';
import { keyCount } from './key-count.js';

export interface MemberAdminOptions {
  /** Bound of each HTTP probe and each unary gRPC call (default 3 s). */
  readonly callTimeoutMs?: number;
  /** Bound of a whole snapshot stream (default 10 min). */
  readonly snapshotTimeoutMs?: number;
}

export function createMemberAdmin(o: MemberAdminOptions = {}, access: MemberAccess = {}): MemberAdmin {
  const callMs = o.callTimeoutMs ?? 3000;
  const snapMs = o.snapshotTimeoutMs ?? 600_000;
  const pool = new ClientPool(callMs, callMs, access);
  const calls = new GrpcCalls(pool);
  const tls = access.tls;
  /** An HTTP probe of the URL to dial, with the TLS server name a mapped URL carries (dial-target.ts). */
  const probe =
    <T>(fetch: (url: string, ms: number, signal: AbortSignal | undefined, tls: HttpTls) => Promise<T>) =>
    (url: string, signal?: AbortSignal): Promise<T> => {
      const d = dialTarget(url);
      return fetch(d.url, callMs, signal, d.serverName === undefined ? tls : { ...tls, serverName: d.serverName });
    };
  return {
    version: probe(fetchVersion),
    health: probe(fetchHealth),
    metrics: probe(fetchMetrics),
    status: (url, signal) => calls.status(url, signal),
    alarms: (url, signal) => calls.alarms(url, signal),
    linearizableRead: (url, signal) => calls.linearizableRead(url, signal),
    authEnabled: (url, signal) => calls.authEnabled(url, signal),
    memberList: (url, signal) => calls.memberList(url, signal),
    addLearner: (url, peerURL) => calls.addLearner(url, peerURL),
    promote: (url, id) => calls.promote(url, id),
    remove: (url, id) => calls.remove(url, id),
    snapshot: (url, file, signal) => snapshotToFile(calls, url, file, snapMs, signal),
    keyCount: (url, signal) => keyCount(calls, url, signal),
    close: () => pool.close(),
  };
}
