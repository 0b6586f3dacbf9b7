/**
 * The constructor options of an `H2Connection` and their defaults: what it advertises in its
 * SETTINGS, the size of its receive windows, and the bounds that cut a client off
 * (server/transport/README.md, "What the connection enforces", lists them with their reasons).
 *
 * Contract: `resolveOptions` fills every option left out with its default and changes nothing
 * else; it reads no clock (the default clock is returned, not called).
 */
import { performance } from 'node:perf_hooks';
import type { FloodBounds } from './flood-guard.js';

export interface H2ConnectionOptions {
  /** Streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS). Default 1000. */
  readonly maxConcurrentStreams?: number;
  /** Our receive window per stream (SETTINGS_INITIAL_WINDOW_SIZE). Default 1 MiB. */
  readonly streamWindow?: number;
  /** Our receive window for the whole connection. Default 16 MiB. */
  readonly connectionWindow?: number;
  /** Largest request header list, decoded (SETTINGS_MAX_HEADER_LIST_SIZE). Default 64 KiB; larger: 431. */
  readonly maxHeaderBytes?: number;
  /** Encoded bytes one header block may span over HEADERS + CONTINUATION. Default 4 × `maxHeaderBytes`. */
  readonly maxHeaderBlockBytes?: number;
  /** Bytes the socket may hold unsent before the connection is dropped (ENHANCE_YOUR_CALM). Default 64 MiB. */
  readonly maxUnsentBytes?: number;
  /** Flood bounds (flood-guard.ts); a kind left out keeps its default. */
  readonly floods?: Partial<FloodBounds>;
  /** Closed stream ids remembered with how they closed (stream-history.ts). Default 4096. */
  readonly closedStreamMemory?: number;
  /** The flood bounds' clock: monotonic milliseconds. Default `performance.now`. */
  readonly now?: () => number;
}

/** Every option, with its default where it was left out. */
export type ConnectionLimits = Required<H2ConnectionOptions>;

/**
 * Bytes the socket may hold unsent before the connection is dropped, by default: header blocks
 * are not flow-controlled, so a client that sends calls and never reads their answers is cut
 * off there (frame-out.ts).
 */
const MAX_UNSENT = 64 << 20;

export function resolveOptions(options: H2ConnectionOptions): ConnectionLimits {
  const maxHeaderBytes = options.maxHeaderBytes ?? 64 << 10;
  return {
    maxConcurrentStreams: options.maxConcurrentStreams ?? 1000,
    streamWindow: options.streamWindow ?? 1 << 20,
    connectionWindow: options.connectionWindow ?? 16 << 20,
    maxHeaderBytes,
    maxHeaderBlockBytes: options.maxHeaderBlockBytes ?? 4 * maxHeaderBytes,
    maxUnsentBytes: options.maxUnsentBytes ?? MAX_UNSENT,
    floods: options.floods ?? {},
    closedStreamMemory: options.closedStreamMemory ?? 4096,
    now: options.now ?? (() => performance.now()),
  };
}
