/**
 * With `KVSTORE_CLIENT_THREADS=1` the front-end thread serves watch streams itself, from its
 * read replica (server/frontend/local-watches.ts), on a real process with real clients (a gRPC
 * Watch client, etcdctl 3.4). (etcdctl's own watch suite runs there too: etcdctl-watch.test.ts;
 * require-leader streams: cluster-hasleader.test.ts.)
 *
 * - the first Watch seen only asks for the replica and is served by the core; the next ones by
 *   the thread, counted in `kvstore_frontend_local_watch_streams_total`, in the member's watch
 *   gauges and in `grpc_server_*` as the core's are;
 * - under 8 concurrent writers (puts and deletes), a live `prev_kv` watcher on the thread sees
 *   exactly the events a history watch from the same revision replays, every previous value
 *   included, and its last values equal what a linearizable read from the core returns;
 * - auth turned on while a stream served by the thread is open: its watcher goes on, a new
 *   create on it is refused as the core refuses one without a user; new streams go to the core,
 *   which serves a user;
 * - a stream with a token is served by the core (the token is checked there even while auth is
 *   off).
 *
 * Runs against kvstore only (the variable is kvstore's). Waits are bounded; nothing is timed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { FRONT_END_WATCHES, keepFrontEndWatches, LOCAL_WATCH_STREAMS, metricValue, rawWatch, type KeptWatch } from '../support/front-end-watches.js';
import { ctlFor, eventually, openKv, spawnEtcdctl, startMember, type BoundCtl, type Member } from '../support/processes.js';

type WatchStream = grpc.ClientDuplexStream<pb.WatchRequest, pb.WatchResponse>;

const createReq = (key: string, more: Partial<pb.WatchCreateRequest> = {}): pb.WatchRequest => ({
  requestUnion: {
    $case: 'createRequest',
    value: { key: Buffer.from(key), rangeEnd: Buffer.alloc(0), startRevision: 0n, progressNotify: false, filters: [], prevKv: false, watchId: 0n, fragment: false, ...more },
  },
});

/** The end of a prefix range. */
function prefixEnd(prefix: string): Buffer {
  const b = Buffer.from(prefix);
  b[b.length - 1]! += 1;
  return b;
}

/** Every response of `stream` from now on. */
function collect(stream: WatchStream): pb.WatchResponse[] {
  const seen: pb.WatchResponse[] = [];
  stream.on('data', (r: pb.WatchResponse) => seen.push(r));
  return seen;
}

/** An event as compared: type, key, value, mod revision, and the previous value if any. */
function flat(resps: readonly pb.WatchResponse[]): string[] {
  return resps.flatMap((r) => r.events.map((e) => `${e.type}:${e.kv!.key.toString()}=${e.kv!.value.toString()}@${e.kv!.modRevision}<${e.prevKv?.value.toString() ?? '-'}`));
}

void describe('KVSTORE_CLIENT_THREADS=1: watch streams served by the front-end thread', () => {
  let m: Member;
  let ctl: BoundCtl;
  let keeper: KeptWatch | undefined;

  before(async () => {
    m = await startMember('kvstore', { env: FRONT_END_WATCHES });
    ctl = ctlFor(m);
  });
  after(async () => {
    keeper?.close();
    await m?.stop();
  });

  void it('the first Watch goes to the core; the next ones are served by the thread and counted as the core counts its own', async () => {
    const first = await rawWatch(m, 'count/first');
    try {
      assert.equal(await metricValue(m, LOCAL_WATCH_STREAMS), 0, 'the first one was served by the core');
      keeper = await keepFrontEndWatches(m);
      const local = await metricValue(m, LOCAL_WATCH_STREAMS);
      assert.ok(local >= 1);
      const more = await Promise.all([rawWatch(m, 'count/a'), rawWatch(m, 'count/b'), rawWatch(m, 'count/c')]);
      await eventually('three more streams on the thread', async () => ((await metricValue(m, LOCAL_WATCH_STREAMS)) === local + 3 ? true : undefined));
      // The core's gauges include the thread's streams (refreshed every few seconds).
      await eventually('the watch gauges count every stream', async () =>
        (await metricValue(m, 'kvstore_debugging_mvcc_watch_stream_total')) >= 5 && (await metricValue(m, 'kvstore_debugging_mvcc_watcher_total')) >= 5 ? true : undefined,
      );
      const started = 'grpc_server_started_total{grpc_type="bidi_stream",grpc_service="etcdserverpb.Watch",grpc_method="Watch"}';
      assert.ok((await metricValue(m, started)) >= 5, 'started counts the thread streams too');
      for (const w of more) {
        w.stream.cancel();
        w.client.close();
      }
      const canceled = 'grpc_server_handled_total{grpc_type="bidi_stream",grpc_service="etcdserverpb.Watch",grpc_method="Watch",grpc_code="Canceled"}';
      await eventually('the ended streams are counted', async () => ((await metricValue(m, canceled)) >= 3 ? true : undefined));
    } finally {
      first.stream.cancel();
      first.client.close();
    }
  });

  void it('under concurrent writers a live prev_kv watcher on the thread sees what history replays, and the core agrees on the last values', async () => {
    const from = (await ctl.revision()) + 1;
    const before = await metricValue(m, LOCAL_WATCH_STREAMS);
    const live = await rawWatch(m, 'load/none');
    const liveSeen = collect(live.stream);
    live.stream.write(createReq('load/', { rangeEnd: prefixEnd('load/'), prevKv: true, watchId: 7n }));
    await eventually('the live watcher is created', async () => (liveSeen.some((r) => r.created && r.watchId === 7n) ? true : undefined));
    const kv = openKv(m.endpoint);
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; i < 60; i++) {
        const key = Buffer.from(`load/${(w * 7 + i) % 12}`);
        await new Promise<void>((resolve, reject) => {
          const done = (err: grpc.ServiceError | null): void => (err ? reject(err) : resolve());
          if (i % 5 === 4) kv.deleteRange({ key, rangeEnd: Buffer.alloc(0), prevKv: false }, done);
          else kv.put({ key, value: Buffer.from(`${w}.${i}`), lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false }, done);
        });
      }
    };
    try {
      await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
      const last = await ctl.revision();
      await eventually('the live watcher reaches the last write', async () => (liveSeen.some((r) => r.events.some((e) => e.kv!.modRevision === BigInt(last))) ? true : undefined));
      const replay = await rawWatch(m, 'load/none');
      const replaySeen = collect(replay.stream);
      replay.stream.write(createReq('load/', { rangeEnd: prefixEnd('load/'), prevKv: true, startRevision: BigInt(from), watchId: 8n }));
      await eventually('the history watcher reaches the last write', async () => (replaySeen.some((r) => r.events.some((e) => e.kv!.modRevision === BigInt(last))) ? true : undefined));
      const liveEvents = flat(liveSeen);
      assert.equal(liveEvents.length, last - from + 1, 'one event per write');
      assert.deepEqual(liveEvents, flat(replaySeen));
      assert.ok(liveEvents.some((e) => !e.endsWith('<-')), 'previous values are there');
      // The last event of each key agrees with the core's linearizable read.
      const lastOf = new Map<string, string>();
      for (const r of liveSeen) for (const e of r.events) lastOf.set(e.kv!.key.toString(), e.type === 0 ? e.kv!.value.toString() : '');
      const got = await ctl.ok(['get', 'load/', '--prefix', '-w', 'json']);
      const kvs = (JSON.parse(got) as { kvs?: Array<{ key: string; value: string }> }).kvs ?? [];
      const fromCore = new Map(kvs.map((x) => [Buffer.from(x.key, 'base64').toString(), Buffer.from(x.value, 'base64').toString()]));
      for (const [k, v] of lastOf) assert.equal(fromCore.get(k) ?? '', v, k);
      assert.ok((await eventually('both streams were the thread\'s', async () => ((await metricValue(m, LOCAL_WATCH_STREAMS)) >= before + 2 ? true : undefined))));
      replay.stream.cancel();
      replay.client.close();
    } finally {
      live.stream.cancel();
      live.client.close();
      kv.close();
    }
  });

  void it('a stream with a token is served by the core, which checks the token even while auth is off', async () => {
    const before = await metricValue(m, LOCAL_WATCH_STREAMS);
    const md = new grpc.Metadata();
    md.set('token', 'no-such-token');
    const watch = new pb.WatchClient(m.endpoint, grpc.credentials.createInsecure());
    const stream = watch.watch(md);
    const seen = collect(stream);
    stream.on('error', () => undefined);
    stream.write(createReq('token/a'));
    try {
      await eventually('the create is refused', async () => (seen.length > 0 ? true : undefined));
      assert.equal(seen[0]!.canceled, true);
      assert.equal(seen[0]!.cancelReason, 'rpc error: code = Unauthenticated desc = etcdserver: invalid auth token');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.equal(await metricValue(m, LOCAL_WATCH_STREAMS), before, 'not served by the thread');
    } finally {
      stream.cancel();
      watch.close();
    }
  });

  void it('auth on: a stream served by the thread keeps its watcher, a new create on it is refused as the core refuses one without a user', async () => {
    const start = await metricValue(m, LOCAL_WATCH_STREAMS);
    const w = await rawWatch(m, 'auth/a');
    const seen = collect(w.stream);
    try {
      // The thread reports its streams about once a second: wait until this one is counted, so the
      // count taken below cannot grow by this stream's late report.
      await eventually('the thread counts the stream', async () => ((await metricValue(m, LOCAL_WATCH_STREAMS)) > start ? true : undefined));
      await ctl.ok(['user', 'add', 'root', '--new-user-password=rootpw']);
      await ctl.ok(['user', 'grant-role', 'root', 'root']);
      await ctl.ok(['auth', 'enable']);
      try {
        await ctl.ok(['put', 'auth/a', 'after', '--user', 'root:rootpw']);
        await eventually('the watcher goes on', async () => (seen.some((r) => r.events.some((e) => e.kv!.value.toString() === 'after')) ? true : undefined));
        w.stream.write(createReq('auth/b', { watchId: 21n }));
        await eventually('the create is answered', async () => (seen.some((r) => r.canceled) ? true : undefined));
        const refused = seen.find((r) => r.canceled)!;
        assert.deepEqual(
          { created: refused.created, canceled: refused.canceled, watchId: refused.watchId, reason: refused.cancelReason },
          { created: true, canceled: true, watchId: -1n, reason: 'rpc error: code = InvalidArgument desc = etcdserver: user name is empty' },
        );
        // A new stream goes to the core, which serves the user.
        const before = await metricValue(m, LOCAL_WATCH_STREAMS);
        const watcher = spawnEtcdctl(m.endpoint, ['watch', 'auth/a', '--rev=1', '--user', 'root:rootpw']);
        await watcher.waitFor('after');
        await watcher.stop('SIGINT');
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        assert.equal(await metricValue(m, LOCAL_WATCH_STREAMS), before, 'the new stream was the core\'s');
      } finally {
        await ctl.ok(['auth', 'disable', '--user', 'root:rootpw']);
      }
    } finally {
      w.stream.cancel();
      w.client.close();
    }
  });
});
