/**
 * The peer handshake (see FORMAT.md): the headers every peer request carries and the
 * receiver's admission decision. Pure: the caller does the HTTP and the logging.
 *
 * Admission order (as etcd's stream handler): version compatibility and cluster id (412),
 * sender id in the path (400), removed sender (410), unknown sender (404), `X-Raft-To`
 * naming another member (412). A rejection carries the response status, the body text and
 * the log line the receiver writes (etcd's wording and field names).
 */
import { formatId, parseId } from '../config/identity.js';

export const PeerHeader = {
  From: 'x-server-from',
  ServerVersion: 'x-server-version',
  MinClusterVersion: 'x-min-cluster-version',
  ClusterId: 'x-etcd-cluster-id',
  PeerUrls: 'x-peerurls',
  To: 'x-raft-to',
} as const;

/** What a member says about itself in every peer request and answer. */
export interface LocalIdentity {
  readonly localId: bigint;
  readonly clusterId: bigint;
  /** Full server version, e.g. `3.4.45`. */
  readonly serverVersion: string;
  /** Lowest cluster version this server can join, e.g. `3.0.0`. */
  readonly minClusterVersion: string;
  /** The local member's advertised peer URLs (`X-PeerURLs`). */
  readonly advertiseUrls: readonly string[];
}

/** Membership as the receiver sees it when a request arrives. */
export interface MembershipView {
  isPeer(id: bigint): boolean;
  isRemoved(id: bigint): boolean;
}

export type Admission =
  | { readonly kind: 'Accept'; readonly from: bigint }
  | {
      readonly kind: 'Reject';
      readonly status: number;
      readonly body: string;
      readonly from: bigint | undefined;
      /** Sender's `X-PeerURLs` (empty when absent), useful to learn an unknown sender. */
      readonly peerUrls: readonly string[];
      readonly log: { readonly msg: string; readonly fields: Readonly<Record<string, string>> };
    };

export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

/** Headers of a request from `local` to member `to`. */
export function requestHeaders(local: LocalIdentity, to: bigint): Record<string, string> {
  return {
    [PeerHeader.From]: formatId(local.localId),
    [PeerHeader.ServerVersion]: local.serverVersion,
    [PeerHeader.MinClusterVersion]: local.minClusterVersion,
    [PeerHeader.ClusterId]: formatId(local.clusterId),
    [PeerHeader.PeerUrls]: local.advertiseUrls.join(','),
    [PeerHeader.To]: formatId(to),
  };
}

/** Headers of an accepting answer (the dialer checks the cluster id in it). */
export function answerHeaders(local: LocalIdentity): Record<string, string> {
  return {
    [PeerHeader.From]: formatId(local.localId),
    [PeerHeader.ServerVersion]: local.serverVersion,
    [PeerHeader.MinClusterVersion]: local.minClusterVersion,
    [PeerHeader.ClusterId]: formatId(local.clusterId),
  };
}

export function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Decides whether a stream or snapshot request is served.
 * @param pathFrom the sender id text from the request path.
 */
export function admit(local: LocalIdentity, headers: HeaderBag, pathFrom: string, view: MembershipView): Admission {
  const localHex = formatId(local.localId);
  const clusterHex = formatId(local.clusterId);
  const peerUrls = (header(headers, PeerHeader.PeerUrls) ?? '').split(',').filter((u) => u !== '');
  const headerFrom = header(headers, PeerHeader.From) ?? '';
  const reject = (status: number, body: string, msg: string, fields: Record<string, string>, from?: bigint): Admission => ({
    kind: 'Reject',
    status,
    body,
    from,
    peerUrls,
    log: { msg, fields: { 'local-member-id': localHex, ...fields } },
  });

  const remoteVersion = header(headers, PeerHeader.ServerVersion) ?? '';
  const remoteMin = header(headers, PeerHeader.MinClusterVersion) ?? '';
  const incompatible = versionIncompatibility(local, remoteVersion, remoteMin);
  if (incompatible !== undefined) {
    return reject(412, incompatible, 'failed to check version compatibility', {
      'local-member-server-version': local.serverVersion,
      'local-member-server-minimum-cluster-version': local.minClusterVersion,
      'remote-peer-server-name': headerFrom,
      'remote-peer-server-version': remoteVersion,
      'remote-peer-server-minimum-cluster-version': remoteMin,
      error: incompatible,
    });
  }
  const remoteCluster = header(headers, PeerHeader.ClusterId);
  if (remoteCluster !== undefined && parseId(remoteCluster) !== local.clusterId) {
    return reject(412, 'cluster ID mismatch', 'request cluster ID mismatch', {
      'local-member-cluster-id': clusterHex,
      'local-member-server-version': local.serverVersion,
      'local-member-server-minimum-cluster-version': local.minClusterVersion,
      'remote-peer-server-name': headerFrom,
      'remote-peer-server-version': remoteVersion,
      'remote-peer-server-minimum-cluster-version': remoteMin,
      'remote-peer-cluster-id': remoteCluster,
    });
  }
  const from = parseId(pathFrom);
  if (from === undefined) {
    return reject(400, 'invalid from', 'failed to parse path into ID', { path: pathFrom });
  }
  const ids = { 'remote-peer-id-stream-handler': localHex, 'remote-peer-id-from': formatId(from) };
  if (view.isRemoved(from)) {
    return reject(410, 'removed member', 'rejected stream from remote peer because it was removed', ids, from);
  }
  if (!view.isPeer(from)) {
    return reject(404, 'error sender not found', 'failed to find remote peer in cluster', { ...ids, 'cluster-id': clusterHex }, from);
  }
  const to = header(headers, PeerHeader.To);
  if (to !== undefined && parseId(to) !== local.localId) {
    return reject(412, 'to field mismatch', 'ignored streaming request; ID mismatch', { 'remote-peer-id-header': to, ...ids }, from);
  }
  return { kind: 'Accept', from };
}

/**
 * etcd's rule, on major.minor: the remote server must be at least the local minimum cluster
 * version, and the local server at least the remote minimum cluster version. Absent or
 * unparsable versions are not checked.
 */
export function versionIncompatibility(local: LocalIdentity, remoteVersion: string, remoteMin: string): string | undefined {
  const rv = majorMinor(remoteVersion);
  const lmin = majorMinor(local.minClusterVersion);
  if (rv !== undefined && lmin !== undefined && compare(rv, lmin) < 0) {
    return `remote version is too low: remote[${remoteVersion}] < minCluster[${local.minClusterVersion}]`;
  }
  const rmin = majorMinor(remoteMin);
  const lv = majorMinor(local.serverVersion);
  if (rmin !== undefined && lv !== undefined && compare(rmin, lv) > 0) {
    return `local version is too low: remote[${remoteMin}] > local[${local.serverVersion}]`;
  }
  return undefined;
}

function majorMinor(v: string): readonly [number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+].*)?$/.exec(v);
  return m === null ? undefined : [Number(m[1]), Number(m[2])];
}

function compare(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] !== b[0] ? a[0] - b[0] : a[1] - b[1];
}
