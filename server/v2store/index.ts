/**
 * The v2 store's public surface: the store, its data types, errors, the request codec
 * and the TTL → expiration helper used by the edges.
 */
export { V2Store, DEFAULT_HISTORY_CAPACITY, DEFAULT_NAMESPACES, type V2StoreOptions } from './store.js';
export { V2Action, V2Method, type V2Event, type V2Node, type V2Request, type V2Watch, type V2WatchOptions } from './types.js';
export { V2ErrorCode, isV2Error, v2Error, type V2Error, type V2Result } from './errors.js';
export { encodeV2Request, decodeV2Request } from './request-codec.js';
export { expirationFromTtl } from './expiration.js';
export type { V2SnapshotJSON } from './snapshot.js';
export { MIN_EXPIRATION_MS } from './op-create.js';
