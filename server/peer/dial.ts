/**
 * Opens one outbound stream: an HTTP/1.1 `GET` with `Upgrade: kvstore-raft-frames` to the
 * peer's stream path; a `101` answer hands over the raw TCP socket (see FORMAT.md).
 *
 * Contract: `promise` always resolves (never rejects) exactly once with
 * - `Upgraded` (the socket is the caller's from then on; `head` holds bytes already read),
 * - `Rejected` (a non-101 status; `body` is the trimmed answer text, at most 1 KiB), or
 * - `Failed` (connect error, timeout, abort, or an answer naming another cluster).
 * `abort()` settles a pending dial as `Failed` and resolves once the dial's connection is
 * closed (at once after an `Upgraded` outcome: that socket is the caller's).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { parseId } from '../config/identity.js';
import { remoteAlertText } from '../tls/tls-alert-text.js';
import { header, PeerHeader } from './handshake.js';
import { peerRequest, type PeerDialTls } from './peer-request.js';

export const STREAM_UPGRADE = 'kvstore-raft-frames';
export const STREAM_PATH_PREFIX = '/raft/stream/frames/';
export const SNAPSHOT_PATH = '/raft/snapshot';

export type DialOutcome =
  | { readonly kind: 'Upgraded'; readonly socket: Socket; readonly head: Buffer; readonly headers: IncomingHttpHeaders }
  | { readonly kind: 'Rejected'; readonly status: number; readonly body: string }
  | { readonly kind: 'Failed'; readonly message: string; readonly cause?: unknown };

export interface Dial {
  readonly promise: Promise<DialOutcome>;
  abort(): Promise<void>;
}

const MAX_REJECTION_BODY = 1024;

/** `tls`: options for an `https:` URL (the stream then runs over TLS). */
export function dialStream(url: string, path: string, headers: Record<string, string>, expectCluster: bigint, timeoutMs: number, tls: PeerDialTls): Dial {
  let settle: (o: DialOutcome) => void = () => undefined;
  const promise = new Promise<DialOutcome>((resolve) => {
    settle = resolve;
  });
  const req = peerRequest(url, { method: 'GET', path, agent: false, headers: { ...headers, connection: 'Upgrade', upgrade: STREAM_UPGRADE } }, tls);
  if (typeof req === 'string') {
    settle({ kind: 'Failed', message: req });
    return { promise, abort: () => Promise.resolve() };
  }
  let done = false;
  let upgraded = false;
  let requestClosed = false;
  const finish = (o: DialOutcome): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    settle(o);
  };
  // `finish` runs only from events and `abort`, both after this assignment.
  const timer = setTimeout(() => {
    finish({ kind: 'Failed', message: `dial timeout after ${timeoutMs}ms` });
    req.destroy();
  }, timeoutMs);
  // A TLS alert from the peer (it refused our certificate) is told in Go's words, as etcd logs it.
  req.on('error', (err) => finish({ kind: 'Failed', message: remoteAlertText(err) ?? err.message, cause: err }));
  req.on('close', () => {
    requestClosed = true;
  });
  req.on('upgrade', (res, socket, head) => {
    const cluster = header(res.headers, PeerHeader.ClusterId);
    if (done) {
      socket.destroy();
    } else if (cluster !== undefined && parseId(cluster) !== expectCluster) {
      socket.destroy();
      finish({ kind: 'Failed', message: `remote answered for cluster ${cluster}` });
    } else {
      upgraded = true;
      finish({ kind: 'Upgraded', socket, head, headers: res.headers });
    }
  });
  req.on('response', (res) => {
    const parts: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      if (size < MAX_REJECTION_BODY) parts.push(c);
      size += c.length;
    });
    const reject = (): void => {
      const body = Buffer.concat(parts).subarray(0, MAX_REJECTION_BODY).toString('utf8').trim();
      finish({ kind: 'Rejected', status: res.statusCode ?? 0, body });
      req.destroy();
    };
    res.on('end', reject);
    res.on('close', reject);
    res.on('error', reject);
  });
  req.end();
  return {
    promise,
    abort() {
      finish({ kind: 'Failed', message: 'dial aborted' });
      if (upgraded || requestClosed) return Promise.resolve();
      const closed = new Promise<void>((resolve) => req.once('close', () => resolve()));
      req.destroy();
      return closed;
    },
  };
}
