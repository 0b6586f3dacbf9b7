// LeaseKeepAlive bidi stream through the real server: ordered one-at-a-time handling,
// error ends the stream, half-close ends it with OK, hasleader.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { fail, ok } from '../../../server/errors/domain-error.js';
import { call, header, msg, requireLeader, startServer, statusOf, type Harness } from './harness.js';

let h: Harness;
let client: pb.LeaseClient;
before(async () => {
  h = await startServer();
  client = new pb.LeaseClient(h.address, h.creds);
});
after(async () => {
  client.close();
  await h.close();
});

const ka = (id: bigint): pb.LeaseKeepAliveRequest => ({ ID: id });
const turns = (n: number) => new Promise<void>((resolve) => {
  const step = (left: number): void => (left === 0 ? resolve() : void setImmediate(() => step(left - 1)));
  step(n);
});

void test('replies come back in request order; requests are handled one at a time', async () => {
  const original = h.services.lease.keepAlive;
  let inFlight = 0;
  let maxInFlight = 0;
  h.services.lease.keepAlive = async (r) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await turns(Number(10n - (r.ID % 10n))); // later ids would finish first if run concurrently
    inFlight -= 1;
    return ok(msg(pb.LeaseKeepAliveResponse, { header: header(), ID: r.ID, TTL: r.ID * 2n }));
  };
  try {
    const stream = client.leaseKeepAlive();
    stream.on('error', () => undefined);
    const ids = Array.from({ length: 20 }, (_, i) => BigInt(i + 1));
    const got: pb.LeaseKeepAliveResponse[] = [];
    const all = new Promise<void>((resolve) =>
      stream.on('data', (r: pb.LeaseKeepAliveResponse) => {
        got.push(r);
        if (got.length === ids.length) resolve();
      }),
    );
    for (const id of ids) stream.write(ka(id));
    await all;
    assert.deepEqual(got.map((r) => r.ID), ids);
    assert.deepEqual(got.map((r) => r.TTL), ids.map((i) => i * 2n));
    assert.equal(maxInFlight, 1);
    const status = statusOf(stream);
    stream.end();
    assert.equal((await status).code, grpc.status.OK);
  } finally {
    h.services.lease.keepAlive = original;
  }
});

void test('half-close right after a request: the reply still arrives, then OK', async () => {
  const stream = client.leaseKeepAlive();
  stream.on('error', () => undefined);
  const got: pb.LeaseKeepAliveResponse[] = [];
  stream.on('data', (r: pb.LeaseKeepAliveResponse) => got.push(r));
  const status = statusOf(stream);
  stream.write(ka(5n));
  stream.end();
  assert.equal((await status).code, grpc.status.OK);
  assert.deepEqual(got.map((r) => [r.ID, r.TTL]), [[5n, 10n]]);
});

void test('a domain error ends the stream with its status', async () => {
  const original = h.services.lease.keepAlive;
  h.services.lease.keepAlive = (r) =>
    Promise.resolve(r.ID === 2n ? fail({ kind: 'LeaderChanged' }) : ok(msg(pb.LeaseKeepAliveResponse, { ID: r.ID, TTL: 3n })));
  try {
    const stream = client.leaseKeepAlive();
    stream.on('error', () => undefined);
    const got: bigint[] = [];
    stream.on('data', (r: pb.LeaseKeepAliveResponse) => got.push(r.ID));
    const status = statusOf(stream);
    stream.write(ka(1n));
    stream.write(ka(2n));
    stream.write(ka(3n));
    const s = await status;
    assert.equal(s.code, grpc.status.UNAVAILABLE);
    assert.equal(s.details, 'etcdserver: leader changed');
    assert.deepEqual(got, [1n]);
  } finally {
    h.services.lease.keepAlive = original;
  }
});

void test('hasleader=true without a leader fails the stream at start', async () => {
  h.leader = false;
  try {
    const stream = client.leaseKeepAlive(requireLeader());
    stream.on('error', () => undefined);
    const s = await statusOf(stream);
    assert.equal(s.code, grpc.status.UNAVAILABLE);
    assert.equal(s.details, 'etcdserver: no leader');
  } finally {
    h.leader = true;
  }
});

void test('lease unary calls map through', async () => {
  const grant = await call(client, pb.LeaseService.leaseGrant, { TTL: 5n, ID: 0n });
  assert.deepEqual([grant.response?.ID, grant.response?.TTL], [7n, 5n]);
  const ttl = await call(client, pb.LeaseService.leaseTimeToLive, { ID: 99n, keys: false });
  assert.deepEqual([ttl.response?.ID, ttl.response?.TTL], [99n, -1n]);
  const original = h.services.lease.leaseRevoke;
  h.services.lease.leaseRevoke = () => Promise.resolve(fail({ kind: 'LeaseNotFound' }));
  try {
    const revoke = await call(client, pb.LeaseService.leaseRevoke, { ID: 1n });
    assert.equal(revoke.error?.code, grpc.status.NOT_FOUND);
    assert.equal(revoke.error?.details, 'etcdserver: requested lease not found');
  } finally {
    h.services.lease.leaseRevoke = original;
  }
});
