/**
 * Expected failures of the peer transport, as values (never thrown).
 *
 * - `PeerNotFound`: the local transport has no peer with that id (never added, or removed);
 * - `Rejected`: the remote member answered the handshake or the snapshot with an HTTP status
 *   other than success (404 unknown sender, 410 removed, 412 cluster id or version mismatch,
 *   500 the remote snapshot handler failed); `reason` is the response body text;
 * - `Unreachable`: no connection could be made, or it broke before the exchange completed;
 * - `Stopped`: the local transport is closed;
 * - `SourceFailed`: the local snapshot body iterable threw.
 */
export const PeerErrorKind = {
  PeerNotFound: 'PeerNotFound',
  Rejected: 'Rejected',
  Unreachable: 'Unreachable',
  Stopped: 'Stopped',
  SourceFailed: 'SourceFailed',
} as const;
export type PeerErrorKind = (typeof PeerErrorKind)[keyof typeof PeerErrorKind];

export type PeerError =
  | { readonly kind: 'PeerNotFound'; readonly peerId: bigint }
  | { readonly kind: 'Rejected'; readonly status: number; readonly reason: string }
  | { readonly kind: 'Unreachable'; readonly message: string; readonly cause?: unknown }
  | { readonly kind: 'Stopped' }
  | { readonly kind: 'SourceFailed'; readonly message: string; readonly cause?: unknown };

/** Outcome of a transport operation that can fail in an expected way. */
export type PeerResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: PeerError };

export const peerOk = <T>(value: T): PeerResult<T> => ({ ok: true, value });
export const peerFail = <T = never>(error: PeerError): PeerResult<T> => ({ ok: false, error });

/** One line of text for logs and for the `error` field of peer status warnings. */
export function describePeerError(e: PeerError): string {
  switch (e.kind) {
    case 'PeerNotFound':
      return `peer ${e.peerId.toString(16)} not found`;
    case 'Rejected':
      return `rejected with status ${e.status} (${e.reason})`;
    case 'Unreachable':
    case 'SourceFailed':
      return e.message;
    case 'Stopped':
      return 'transport stopped';
  }
}
