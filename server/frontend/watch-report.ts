/**
 * What a front end that serves watch streams itself (local-watches.ts) tells the core, about
 * once a second, so that the member's metrics count those streams as the core counts its own:
 * the gRPC counts of the Watch method since the last report (`grpc_server_*`) and the watch
 * hub's gauges as they are now (`etcd_debugging_mvcc_watch*`, `…_pending_events_total`). Pure.
 *
 *   u32 × (4 + 3 + codes): streams · watchers · slow watchers · pending events ·
 *                          started · received · sent · handled per gRPC code (0…16)
 */
import { CODE_NAMES } from '../api/grpc/codes.js';
import type { WatchStats } from '../watch/types.js';

export interface WatchReport {
  /** The hub's gauges now. */
  readonly stats: WatchStats;
  /** Counts since the previous report. */
  readonly started: number;
  readonly received: number;
  readonly sent: number;
  /** Calls ended, by gRPC code. */
  readonly handled: readonly number[];
}

const CODES = CODE_NAMES.length;

export function encodeWatchReport(r: WatchReport): Buffer {
  const b = Buffer.alloc(4 * (7 + CODES));
  const head = [r.stats.streams, r.stats.watchers, r.stats.slowWatchers, r.stats.pendingEvents, r.started, r.received, r.sent];
  head.forEach((v, i) => b.writeUInt32LE(v, 4 * i));
  for (let code = 0; code < CODES; code++) b.writeUInt32LE(r.handled[code] ?? 0, 4 * (7 + code));
  return b;
}

export function decodeWatchReport(payload: Buffer): WatchReport {
  if (payload.length !== 4 * (7 + CODES)) throw new Error(`watch report of ${payload.length} bytes`);
  const at = (i: number): number => payload.readUInt32LE(4 * i);
  return {
    stats: { streams: at(0), watchers: at(1), slowWatchers: at(2), pendingEvents: at(3) },
    started: at(4),
    received: at(5),
    sent: at(6),
    handled: Array.from({ length: CODES }, (_, code) => at(7 + code)),
  };
}
