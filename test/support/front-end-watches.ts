/**
 * Watch streams served by a member's front-end thread (`KVSTORE_CLIENT_THREADS=1`,
 * server/frontend/local-watches.ts), for tests that run watches there.
 *
 * The thread serves watches only while it holds a read replica, and the first Watch it sees
 * only asks the core for one (and is served by the core). `keepFrontEndWatches` opens raw
 * gRPC watch streams until one is served by the thread (`kvstore_frontend_local_watch_streams_total`
 * rises) and keeps that one open, so the replica stays and every plain Watch after it is
 * served by the thread. Bounded by GENEROUS_MS.
 */
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { eventually } from './eventually.js';
import type { Member } from './server-process.js';

export const FRONT_END_WATCHES = { KVSTORE_CLIENT_THREADS: '1' } as const;
export const LOCAL_WATCH_STREAMS = 'kvstore_frontend_local_watch_streams_total';

/** The value of the metric line starting with `name ` (0 when absent). */
export async function metricValue(m: Member, name: string): Promise<number> {
  const text = await (await fetch(`${m.clientUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

export interface KeptWatch {
  close(): void;
}

/** Opens a watch stream with one watcher on `key` and waits for its `created`. */
export function rawWatch(m: Member, key: string, metadata = new grpc.Metadata()): Promise<{ stream: grpc.ClientDuplexStream<pb.WatchRequest, pb.WatchResponse>; client: pb.WatchClient }> {
  const client = new pb.WatchClient(m.endpoint, grpc.credentials.createInsecure());
  const stream = client.watch(metadata);
  stream.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    stream.once('data', (r: pb.WatchResponse) => (r.created ? resolve({ stream, client }) : reject(new Error('watch not created'))));
    stream.write({ requestUnion: { $case: 'createRequest', value: { ...pb.WatchCreateRequest.fromJSON({}), key: Buffer.from(key) } } });
  });
}

/** Keeps one watch stream served by `m`'s front-end thread open until `close`. */
export async function keepFrontEndWatches(m: Member): Promise<KeptWatch> {
  const before = await metricValue(m, LOCAL_WATCH_STREAMS);
  const tried: Array<{ stream: grpc.ClientDuplexStream<pb.WatchRequest, pb.WatchResponse>; client: pb.WatchClient }> = [];
  const kept = await eventually('a watch stream served by the front-end thread', async () => {
    const w = await rawWatch(m, 'front-end-watches/keeper');
    tried.push(w);
    // The thread reports its streams about once a second.
    return (await eventually('the thread reports', async () => ((await metricValue(m, LOCAL_WATCH_STREAMS)) > before ? true : undefined), { timeoutMs: 2_500 }).catch(() => undefined))
      ? w
      : undefined;
  });
  for (const w of tried) {
    if (w === kept) continue;
    w.stream.cancel();
    w.client.close();
  }
  return {
    close() {
      kept.stream.cancel();
      kept.client.close();
    },
  };
}
