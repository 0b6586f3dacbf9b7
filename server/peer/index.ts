/**
 * The peer transport's public surface: construct with `createPeerTransport`, talk to it
 * through `PeerTransport` (types.ts). Everything else in this folder is internal.
 */
export { createPeerTransport } from './transport.js';
export {
  DEFAULT_PEER_TUNING,
  type PeerHandlers,
  type PeerRoute,
  type PeerStats,
  type PeerTransport,
  type PeerTransportOptions,
  type PeerTuning,
  type VersionInfo,
} from './types.js';
export { describePeerError, PeerErrorKind, type PeerError, type PeerResult } from './errors.js';
export { PeerHeader } from './handshake.js';
export { SNAPSHOT_PATH, STREAM_PATH_PREFIX, STREAM_UPGRADE } from './dial.js';
