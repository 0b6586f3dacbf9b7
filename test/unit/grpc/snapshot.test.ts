// Snapshot server stream through the real server: order, volume under back-pressure,
// early cancel releases the producer, producer failure → Unknown.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { collectStream, msg, startServer, until, type Harness } from './harness.js';

let h: Harness;
let client: pb.MaintenanceClient;
before(async () => {
  h = await startServer();
  client = new pb.MaintenanceClient(h.address, h.creds);
});
after(async () => {
  client.close();
  await h.close();
});

const chunk = (i: number, size: number): pb.SnapshotResponse =>
  msg(pb.SnapshotResponse, { remainingBytes: BigInt(i), blob: Buffer.alloc(size, i % 251) });

void test('the default snapshot arrives in order, then OK', async () => {
  const { chunks, status } = await collectStream(client.snapshot({}));
  assert.equal(status.code, grpc.status.OK);
  assert.deepEqual(chunks.map((c) => c.blob.toString()), ['a', 'b']);
});

void test('a large snapshot arrives complete and in order', async () => {
  const original = h.services.maintenance.snapshot;
  const N = 300;
  h.services.maintenance.snapshot = async function* () {
    for (let i = 0; i < N; i++) yield chunk(i, 32 * 1024);
  };
  try {
    const { chunks, status } = await collectStream(client.snapshot({}));
    assert.equal(status.code, grpc.status.OK);
    assert.equal(chunks.length, N);
    chunks.forEach((c, i) => {
      assert.equal(c.remainingBytes, BigInt(i));
      assert.equal(c.blob.length, 32 * 1024);
      assert.equal(c.blob[0], i % 251);
    });
  } finally {
    h.services.maintenance.snapshot = original;
  }
});

void test('client cancel stops pulling chunks and releases the producer', async () => {
  const original = h.services.maintenance.snapshot;
  let released = false;
  h.services.maintenance.snapshot = async function* () {
    try {
      for (let i = 0; ; i++) yield chunk(i, 64 * 1024);
    } finally {
      released = true;
    }
  };
  try {
    const stream = client.snapshot({});
    stream.on('error', () => undefined);
    await new Promise((resolve) => stream.once('data', resolve));
    stream.cancel();
    await until(() => released);
  } finally {
    h.services.maintenance.snapshot = original;
  }
});

void test('a failing producer ends the stream with Unknown and its message', async () => {
  const original = h.services.maintenance.snapshot;
  h.services.maintenance.snapshot = async function* () {
    yield chunk(0, 10);
    throw new Error('disk gone');
  };
  try {
    const { chunks, status } = await collectStream(client.snapshot({}));
    assert.equal(chunks.length, 1);
    assert.equal(status.code, grpc.status.UNKNOWN);
    assert.equal(status.details, 'disk gone');
  } finally {
    h.services.maintenance.snapshot = original;
  }
});
