/**
 * The WatchResponse shapes the hub sends (ETCD-FACTS §1.4, §3.8). Pure builders; the caller
 * supplies the header so header revisions are decided in one place (the hub).
 */
import type { Event } from '../../proto/gen/etcd/kv.js';
import type { ResponseHeader, WatchResponse } from '../../proto/gen/etcd/rpc.js';

/** watch_id carried by create failures and stream-wide progress responses. */
export const InvalidWatchId = -1n;

export const CancelReason = {
  EmptyRange: 'mvcc: watcher range is empty',
  DuplicateId: 'mvcc: duplicate watch ID provided on the WatchStream',
  Compacted: 'etcdserver: mvcc: required revision has been compacted',
} as const;
export type CancelReason = (typeof CancelReason)[keyof typeof CancelReason];

const base = (header: ResponseHeader, watchId: bigint): WatchResponse => ({
  header,
  watchId,
  created: false,
  canceled: false,
  compactRevision: 0n,
  cancelReason: '',
  fragment: false,
  events: [],
});

export const createdResponse = (header: ResponseHeader, watchId: bigint): WatchResponse => ({ ...base(header, watchId), created: true });

/** A create that failed: created and canceled at once, watch_id −1. */
export const createFailedResponse = (header: ResponseHeader, reason: CancelReason): WatchResponse => ({
  ...base(header, InvalidWatchId),
  created: true,
  canceled: true,
  cancelReason: reason,
});

export const canceledResponse = (header: ResponseHeader, watchId: bigint): WatchResponse => ({ ...base(header, watchId), canceled: true });

/** The watcher needs history below the compacted revision; `header` carries revision 0. */
export const compactedResponse = (header: ResponseHeader, watchId: bigint, compactRevision: bigint): WatchResponse => ({
  ...base(header, watchId),
  canceled: true,
  compactRevision,
});

/** Event-less response: progress of one watcher, or of the whole stream with InvalidWatchId. */
export const progressResponse = (header: ResponseHeader, watchId: bigint): WatchResponse => base(header, watchId);

export const eventsResponse = (header: ResponseHeader, watchId: bigint, events: Event[]): WatchResponse => ({
  ...base(header, watchId),
  events,
});
