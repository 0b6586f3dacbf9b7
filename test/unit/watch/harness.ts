/**
 * Test harness: a WatchHub over a FakeLog with manually resolved history reads, clients that
 * record every response, and request builders.
 */
import type { Event } from '../../../proto/gen/etcd/kv.js';
import type { ResponseHeader, WatchCreateRequest, WatchRequest, WatchResponse } from '../../../proto/gen/etcd/rpc.js';
import { WatchHub } from '../../../server/watch/index.js';
import type { WatchSession } from '../../../server/api/services.js';
import type { WatchHubDeps } from '../../../server/watch/index.js';
import { FakeLog, ManualHistory, turn, type Op } from './fake-log.js';

export const header = (revision: bigint): ResponseHeader => ({ clusterId: 11n, memberId: 22n, revision, raftTerm: 3n });

export interface Client {
  readonly got: WatchResponse[];
  readonly session: WatchSession;
  /** send returns false once this many responses were accepted since the last drain. */
  limit: number;
  buffered: number;
  create(c: Partial<WatchCreateRequest>): void;
  cancel(watchId: bigint): void;
  progress(): void;
  /** The transport drained: reset the buffer, resolve the hub's drained() wait, let it react. */
  drain(): Promise<void>;
  take(): WatchResponse[];
}

export interface World {
  readonly log: FakeLog;
  readonly port: ManualHistory;
  readonly hub: WatchHub;
  client(limit?: number): Client;
  /** Writes through the log and notifies the hub. */
  write(...ops: Op[]): bigint;
  put(key: string, value?: string): bigint;
  del(key: string): bigint;
  compact(revision: bigint): void;
}

export const createReq = (c: Partial<WatchCreateRequest>): WatchRequest => ({
  requestUnion: {
    $case: 'createRequest',
    value: {
      key: Buffer.alloc(0),
      rangeEnd: Buffer.alloc(0),
      startRevision: 0n,
      progressNotify: false,
      filters: [],
      prevKv: false,
      watchId: 0n,
      fragment: false,
      ...c,
    },
  },
});

export const k = (s: string): Buffer => Buffer.from(s, 'latin1');

export function world(opts: Partial<WatchHubDeps> = {}): World {
  const log = new FakeLog();
  const port = new ManualHistory(log);
  const hub = new WatchHub({
    history: port.history,
    currentRevision: () => log.revision,
    compactRevision: () => log.compactRevision,
    header,
    maxEventBytes: 1 << 20,
    ...opts,
  });
  const client = (limit = Infinity): Client => {
    const got: WatchResponse[] = [];
    const waiters: Array<() => void> = [];
    const c: Client = {
      got,
      limit,
      buffered: 0,
      session: hub.openWatch(
        (resp) => {
          got.push(resp);
          c.buffered++;
          return c.buffered < c.limit;
        },
        { drained: () => new Promise<void>((resolve) => waiters.push(resolve)) },
      ),
      create: (req) => c.session.request(createReq(req)),
      cancel: (watchId) => c.session.request({ requestUnion: { $case: 'cancelRequest', value: { watchId } } }),
      progress: () => c.session.request({ requestUnion: { $case: 'progressRequest', value: {} } }),
      drain: async () => {
        c.buffered = 0;
        for (const resolve of waiters.splice(0)) resolve();
        await turn();
      },
      take: () => got.splice(0),
    };
    return c;
  };
  const write = (...ops: Op[]): bigint => {
    const w = log.write(ops);
    if (!w) return log.revision;
    hub.notify(w.revision, w.events);
    return w.revision;
  };
  return {
    log,
    port,
    hub,
    client,
    write,
    put: (key, value = `v${log.revision + 1n}`) => write({ put: key, value }),
    del: (key) => write({ del: key }),
    compact: (revision) => {
      log.compact(revision);
      hub.compacted(revision);
    },
  };
}

/** "PUT a@5" / "DELETE a@6" summaries of a response's events. */
export const evs = (resp: WatchResponse): string[] => resp.events.map(ev);
export const ev = (e: Event): string => `${e.type === 0 ? 'PUT' : 'DELETE'} ${e.kv?.key.toString('latin1')}@${e.kv?.modRevision}`;
/** All event summaries of the responses, flattened. */
export const allEvs = (resps: WatchResponse[]): string[] => resps.flatMap(evs);
