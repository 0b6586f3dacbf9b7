// Watch bidi stream through the real server: request/response round trip, ordering under
// back-pressure, session lifetime (cancel, half-close, malformed frame), hasleader.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { header, msg, requireLeader, startServer, statusOf, until, type Harness } from './harness.js';

let h: Harness;
let client: pb.WatchClient;
before(async () => {
  h = await startServer();
  client = new pb.WatchClient(h.address, h.creds);
});
after(async () => {
  client.close();
  await h.close();
});

const create = (key: string): pb.WatchRequest => ({
  requestUnion: { $case: 'createRequest', value: msg(pb.WatchCreateRequest, { key: Buffer.from(key) }) },
});

const open = (md?: grpc.Metadata) => {
  const stream = client.watch(md ?? new grpc.Metadata());
  stream.on('error', () => undefined); // the final status is read through 'status'
  return stream;
};

void test('round trip: create request reaches the session, its reply reaches the client', async () => {
  const before = h.watch.requests.length;
  const stream = open();
  const first = new Promise<pb.WatchResponse>((resolve) => stream.once('data', resolve));
  stream.write(create('foo'));
  const resp = await first;
  assert.equal(resp.created, true);
  assert.equal(resp.watchId, 0n);
  assert.deepEqual(resp.header, header());
  const seen = h.watch.requests[before];
  assert.equal(seen?.requestUnion?.$case, 'createRequest');
  const closed = h.watch.closed;
  stream.cancel();
  await until(() => h.watch.closed === closed + 1);
});

void test('a burst of large responses arrives complete and in order; write reports back-pressure', async () => {
  const sessions = h.watch.sends.length;
  const stream = open();
  stream.write(create('bulk'));
  await new Promise((resolve) => stream.once('data', resolve));
  const send = h.watch.sends[sessions]! as unknown as (r: pb.WatchResponse) => boolean;
  const N = 400;
  const filler = 'x'.repeat(64 * 1024);
  const received: bigint[] = [];
  const done = new Promise<void>((resolve) =>
    stream.on('data', (r: pb.WatchResponse) => {
      received.push(r.watchId);
      if (received.length === N) resolve();
    }),
  );
  let refused = 0;
  for (let i = 1; i <= N; i++) {
    if (!send(msg(pb.WatchResponse, { watchId: BigInt(i), cancelReason: filler }))) refused += 1;
  }
  await done;
  assert.deepEqual(received, Array.from({ length: N }, (_, i) => BigInt(i + 1)));
  assert.ok(refused > 0, 'send returned false at least once under a burst');
  stream.cancel();
});

void test('client half-close keeps the stream open: later events still arrive', async () => {
  const sessions = h.watch.sends.length;
  const stream = open();
  stream.write(create('half'));
  await new Promise((resolve) => stream.once('data', resolve));
  stream.end();
  const next = new Promise<pb.WatchResponse>((resolve) => stream.once('data', resolve));
  h.watch.sends[sessions]!(msg(pb.WatchResponse, { watchId: 9n }));
  assert.equal((await next).watchId, 9n);
  const closed = h.watch.closed;
  stream.cancel();
  await until(() => h.watch.closed === closed + 1);
});

void test('a malformed frame ends the stream with Internal and closes the session', async () => {
  const raw = new grpc.Client(h.address, h.creds);
  const closed = h.watch.closed;
  const stream = raw.makeBidiStreamRequest(
    '/etcdserverpb.Watch/Watch',
    (b: Buffer) => b,
    (b: Buffer) => b,
  );
  stream.on('error', () => undefined);
  stream.on('data', () => undefined);
  const status = statusOf(stream);
  stream.write(Buffer.from([0x0a, 0xff]));
  const s = await status;
  assert.equal(s.code, grpc.status.INTERNAL);
  assert.equal(s.details, 'grpc: error unmarshalling request: premature EOF');
  await until(() => h.watch.closed === closed + 1);
  raw.close();
});

void test('hasleader=true without a leader fails the stream at start', async () => {
  h.leader = false;
  const sessions = h.watch.sends.length;
  try {
    const stream = open(requireLeader());
    const s = await statusOf(stream);
    assert.equal(s.code, grpc.status.UNAVAILABLE);
    assert.equal(s.details, 'etcdserver: no leader');
    assert.equal(h.watch.sends.length, sessions);
  } finally {
    h.leader = true;
  }
});
