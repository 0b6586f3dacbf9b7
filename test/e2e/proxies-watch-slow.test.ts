/**
 * A slow watch client of kvstore's gRPC proxy (run in process, its unread-reply limit set low)
 * costs its own stream only: a client that stops reading has its stream ended with UNAVAILABLE,
 * while a client on the same shared watch gets every event, in order. Waits are bounded; nothing
 * is timed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { pino } from 'pino';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { startGrpcProxy, type GrpcProxy } from '../../server/proxy/grpc-proxy.js';
import { eventually, openKv, put, startKvstore, stopAll, type Member } from '../support/processes.js';

const PUTS = 40;
const VALUE = 'x'.repeat(100_000);

function watchOn(endpoint: string, key: string): { stream: grpc.ClientDuplexStream<pb.WatchRequest, pb.WatchResponse>; replies: pb.WatchResponse[]; status: () => grpc.ServiceError | undefined } {
  const client = new pb.WatchClient(endpoint, grpc.credentials.createInsecure());
  const stream = client.watch();
  const replies: pb.WatchResponse[] = [];
  let failed: grpc.ServiceError | undefined;
  stream.on('data', (r: pb.WatchResponse) => replies.push(r));
  stream.on('error', (e: grpc.ServiceError) => (failed = e));
  stream.write({ requestUnion: { $case: 'createRequest', value: { ...pb.WatchCreateRequest.fromJSON({}), key: Buffer.from(key), rangeEnd: Buffer.from(`${key.slice(0, -1)}0`) } } });
  return { stream, replies, status: () => failed };
}

void describe('grpc-proxy: a slow watch client', () => {
  let member: Member;
  let proxy: GrpcProxy;

  before(async () => {
    member = await startKvstore();
    proxy = await startGrpcProxy({
      listenHost: '127.0.0.1',
      listenPort: 0,
      upstream: { endpoints: [member.endpoint], maxSendBytes: 2 * 1024 * 1024, maxRecvBytes: 2 ** 31 - 1 },
      identity: { name: 'test', advertiseClientUrl: '127.0.0.1:0' },
      watchOutboxLimit: 4,
      logger: pino({ level: 'silent' }),
    });
  });
  after(async () => {
    await proxy.close();
    await stopAll();
  });

  void it('has its stream ended with UNAVAILABLE; a client on the same watch gets every event', async () => {
    const at = `127.0.0.1:${proxy.port}`;
    const fast = watchOn(at, 'slow/');
    const slow = watchOn(at, 'slow/');
    await eventually('both watchers created', () => Promise.resolve(fast.replies.length >= 1 && slow.replies.length >= 1 ? true : undefined));
    slow.stream.pause();
    const kv = openKv(member.endpoint);
    for (let i = 0; i < PUTS; i++) await put(kv, `slow/k${i}`, VALUE, 10_000);
    kv.close();
    const keys = (): string[] => fast.replies.flatMap((r) => r.events.map((e) => e.kv!.key.toString()));
    await eventually('the fast client sees every put', () => Promise.resolve(keys().length >= PUTS ? true : undefined));
    assert.deepEqual(keys(), Array.from({ length: PUTS }, (_, i) => `slow/k${i}`), 'every event, in order, once');
    assert.equal(fast.status(), undefined, 'the fast client\'s stream goes on');
    slow.stream.resume();
    const ended = await eventually('the slow client\'s stream ends', () => Promise.resolve(slow.status()));
    assert.equal(ended.code, grpc.status.UNAVAILABLE);
    assert.match(ended.details, /watch client too slow/);
    assert.equal(proxy.upstreamWatchCreates(), 1, 'both on one upstream watch');
    fast.stream.cancel();
  });
});
