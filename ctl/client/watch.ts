/**
 * The Watch API: one gRPC stream per watcher, opened with require-leader metadata.
 *
 * Contract:
 * - iteration yields the server's responses as `WatchUpdate`s: event batches in revision order,
 *   progress notifications (`progressNotify`), and a final `canceled` update when the server
 *   cancels the watch (e.g. compacted start revision, with `compactRevision`);
 * - the creation answer is yielded only with `createdNotify`;
 * - when the member goes away (the stream fails with Unavailable or ends) the watcher reopens
 *   on another ready endpoint, starting at the revision after the last one it delivered
 *   (event or progress notification), so no event is skipped or repeated;
 * - any other failure is yielded as an error and ends the iteration; the signal, `close()` or
 *   leaving the loop cancels the stream.
 */
import type { ClientDuplexStream, ServiceError } from '@grpc/grpc-js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Event } from '../../proto/gen/etcd/kv.js';
import { WatchCreateRequest_FilterType, WatchService, type ResponseHeader, type WatchRequest, type WatchResponse } from '../../proto/gen/etcd/rpc.js';
import type { Invoker } from './invoker.js';
import { resolveRange, type KeyLike, type RangeSelection } from './keys.js';
import type { Result } from './result.js';
import { cancelOnAbort, reopenPauseMs, resumable } from './stream-util.js';

export interface WatchOptions extends RangeSelection {
  /** First revision to deliver (0: changes after the watch is created). */
  readonly startRevision?: bigint;
  readonly prevKv?: boolean;
  readonly progressNotify?: boolean;
  readonly noPut?: boolean;
  readonly noDelete?: boolean;
  /** Also yield the creation answer. */
  readonly createdNotify?: boolean;
  readonly signal?: AbortSignal;
}

export interface WatchUpdate {
  readonly header: ResponseHeader;
  readonly events: readonly Event[];
  readonly compactRevision: bigint;
  readonly created: boolean;
  readonly canceled: boolean;
  readonly cancelReason: string;
  /** No events, not created/canceled: every event up to `header.revision` was delivered. */
  readonly progressNotify: boolean;
}

export interface Watcher extends AsyncIterable<Result<WatchUpdate>> {
  /** Asks the member for a progress notification on this watcher's stream (sent once the stream is open). */
  requestProgress(): void;
  /** Ends the watch (the iteration then ends). */
  close(): void;
}

const EMPTY_HEADER: ResponseHeader = { clusterId: 0n, memberId: 0n, revision: 0n, raftTerm: 0n };

function toUpdate(r: WatchResponse): WatchUpdate {
  const header = r.header ?? EMPTY_HEADER;
  const progressNotify = r.events.length === 0 && !r.canceled && !r.created && r.compactRevision === 0n && header.revision !== 0n;
  return { header, events: r.events, compactRevision: r.compactRevision, created: r.created, canceled: r.canceled, cancelReason: r.cancelReason, progressNotify };
}

export function watch(inv: Invoker, key: KeyLike, opts: WatchOptions = {}): Watcher {
  const range = resolveRange(key, opts);
  const filters: WatchCreateRequest_FilterType[] = [];
  if (opts.noPut === true) filters.push(WatchCreateRequest_FilterType.NOPUT);
  if (opts.noDelete === true) filters.push(WatchCreateRequest_FilterType.NODELETE);
  const closer = new AbortController();
  const onOuterAbort = (): void => closer.abort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (opts.signal?.aborted === true) closer.abort();
  const signal = closer.signal;
  let current: ClientDuplexStream<WatchRequest, WatchResponse> | undefined;
  /** A progress request made before the stream was open: sent right after the create request. */
  let progressPending = false;
  const progressRequest: WatchRequest = { requestUnion: { $case: 'progressRequest', value: {} } };

  const createRequest = (startRevision: bigint): WatchRequest => ({
    requestUnion: {
      $case: 'createRequest',
      value: {
        key: range.key,
        rangeEnd: range.rangeEnd,
        startRevision,
        progressNotify: opts.progressNotify ?? false,
        filters,
        prevKv: opts.prevKv ?? false,
        watchId: 0n,
        fragment: false,
      },
    },
  });

  async function* run(): AsyncGenerator<Result<WatchUpdate>> {
    let next = opts.startRevision ?? 0n;
    let createdSeen = false;
    let avoid = new Set<string>();
    try {
      for (let tries = 0; ; tries++) {
        const opened = await inv.bidiStream(WatchService.watch, { requireLeader: true, avoid, signal });
        if (!opened.ok) {
          if (!signal.aborted) yield opened;
          return;
        }
        const { stream, endpoint } = opened.value;
        current = stream;
        const detach = cancelOnAbort(stream, signal);
        try {
          stream.write(createRequest(next));
          if (progressPending) {
            progressPending = false;
            stream.write(progressRequest);
          }
          for await (const res of stream as AsyncIterable<WatchResponse>) {
            const u = toUpdate(res);
            if (u.created && !u.canceled) {
              tries = 0;
              if (next === 0n) next = u.header.revision + 1n;
              if (!createdSeen && opts.createdNotify === true) yield { ok: true, value: u };
              createdSeen = true;
              continue;
            }
            if (u.events.length > 0) next = u.events[u.events.length - 1].kv!.modRevision + 1n;
            else if (u.progressNotify && u.header.revision + 1n > next) next = u.header.revision + 1n;
            yield { ok: true, value: u };
            if (u.canceled) return;
          }
        } catch (err) {
          if (signal.aborted) return;
          const e = inv.errorOf(err as ServiceError, endpoint, undefined);
          if (!resumable(e)) {
            yield { ok: false, error: e };
            return;
          }
        } finally {
          detach();
          current = undefined;
          stream.cancel();
        }
        if (signal.aborted) return;
        avoid = new Set([endpoint]);
        await sleep(reopenPauseMs(tries));
      }
    } finally {
      opts.signal?.removeEventListener('abort', onOuterAbort);
    }
  }

  return {
    [Symbol.asyncIterator]: () => run(),
    requestProgress: () => {
      if (current === undefined) progressPending = true;
      else current.write(progressRequest);
    },
    close: () => closer.abort(),
  };
}
