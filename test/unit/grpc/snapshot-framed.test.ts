// The Snapshot stream served on HTTP/2 directly (framed-stream.ts, snapshot-frames.ts),
// through the real server and a grpc-js client: the messages of the grpc-js path, byte for
// byte; back-pressure; the image released on cancel and on failure; statuses before any frame.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { encodeSnapshotResponse } from '../../../server/api/grpc/snapshot-reply.js';
import { snapshotFrames } from '../../../server/api/grpc/snapshot-frames.js';
import type { SnapshotImage } from '../../../server/snapshot/stream.js';
import { collectStream, requireLeader, startServer, until, type Harness } from './harness.js';

const CHUNK = 32 * 1024;

/** An image held in memory; `failAt`: readInto throws once this many bytes were read. */
class MemoryImage implements SnapshotImage {
  position = 0;
  closed = false;
  sentLogged = false;
  constructor(
    readonly bytes: Buffer,
    private readonly failAt = Infinity,
  ) {}
  get size(): number {
    return this.bytes.length;
  }
  get remaining(): number {
    return this.bytes.length - this.position;
  }
  readInto(parts: readonly Buffer[]): Promise<void> {
    if (this.position >= this.failAt) return Promise.reject(new Error('disk gone'));
    for (const part of parts) {
      this.bytes.copy(part, 0, this.position, this.position + part.length);
      this.position += part.length;
    }
    return Promise.resolve();
  }
  digest(): Buffer {
    return createHash('sha256').update(this.bytes).digest();
  }
  sent(): void {
    this.sentLogged = true;
  }
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

function imageOf(size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 7 + (i >> 12)) & 0xff;
  return b;
}

/** The reply messages the grpc-js path sends for `bytes` (stream.ts `streamSnapshot`). */
function expectedMessages(bytes: Buffer): pb.SnapshotResponse[] {
  const out: pb.SnapshotResponse[] = [];
  for (let off = 0; off < bytes.length; off += CHUNK) {
    const blob = bytes.subarray(off, Math.min(off + CHUNK, bytes.length));
    out.push({ header: undefined, remainingBytes: BigInt(bytes.length - off - blob.length), blob });
  }
  out.push({ header: undefined, remainingBytes: 0n, blob: createHash('sha256').update(bytes).digest() });
  return out;
}

let image: MemoryImage;
let h: Harness;
let client: pb.MaintenanceClient;
before(async () => {
  h = await startServer((services) => {
    services.maintenance.snapshotImage = () => Promise.resolve(image);
  });
  client = new pb.MaintenanceClient(h.address, h.creds);
});
after(async () => {
  client.close();
  await h.close();
});

void test('frames are the grpc-js path messages, byte for byte, blocks of whole frames', async () => {
  for (const size of [0, 1, CHUNK - 1, CHUNK, 3 * CHUNK + 17, 40 * CHUNK + 5]) {
    const bytes = imageOf(size);
    const got: Buffer[] = [];
    for await (const block of snapshotFrames(new MemoryImage(bytes))) got.push(block.frames);
    const want = expectedMessages(bytes).map((m) => {
      const body = encodeSnapshotResponse(m);
      const prefix = Buffer.alloc(5);
      prefix.writeUInt32BE(body.length, 1);
      return Buffer.concat([prefix, body]);
    });
    assert.ok(Buffer.concat(got).equals(Buffer.concat(want)), `image of ${size} bytes`);
  }
});

void test('a client receives every chunk in order, the checksum last, then OK; the image is released', async () => {
  image = new MemoryImage(imageOf(3 * CHUNK + 100));
  const { chunks, status } = await collectStream(client.snapshot({}));
  assert.equal(status.code, grpc.status.OK);
  assert.deepEqual(
    chunks.map((c) => [c.remainingBytes, c.blob.length]),
    expectedMessages(image.bytes).map((m) => [m.remainingBytes, m.blob.length]),
  );
  assert.ok(Buffer.concat(chunks.slice(0, -1).map((c) => c.blob)).equals(image.bytes));
  assert.ok(chunks.at(-1)!.blob.equals(image.digest()));
  assert.ok(image.closed && image.sentLogged);
});

void test('a large image arrives complete under back-pressure', async () => {
  image = new MemoryImage(imageOf(24 * 1024 * 1024 + 3));
  const { chunks, status } = await collectStream(client.snapshot({}));
  assert.equal(status.code, grpc.status.OK);
  assert.equal(chunks.length, Math.ceil(image.size / CHUNK) + 1);
  assert.ok(createHash('sha256').update(Buffer.concat(chunks.slice(0, -1).map((c) => c.blob))).digest().equals(chunks.at(-1)!.blob));
});

void test('a client that cancels releases the image and the member stops reading it', async () => {
  image = new MemoryImage(imageOf(64 * 1024 * 1024));
  const stream = client.snapshot({});
  stream.on('error', () => undefined);
  await new Promise((resolve) => stream.once('data', resolve));
  stream.cancel();
  await until(() => image.closed);
  assert.ok(image.remaining > 0, 'stopped before the end');
  assert.equal(image.sentLogged, false);
});

void test('a failing image ends the stream with Unknown and its message after the frames sent', async () => {
  image = new MemoryImage(imageOf(4 * 1024 * 1024), 2 * 1024 * 1024);
  const { chunks, status } = await collectStream(client.snapshot({}));
  assert.equal(status.code, grpc.status.UNKNOWN);
  assert.equal(status.details, 'disk gone');
  assert.ok(chunks.length > 0 && chunks.length < Math.ceil(image.size / CHUNK));
  assert.ok(image.closed);
});

void test('a call that requires a leader gets NoLeader before any frame when there is none', async () => {
  image = new MemoryImage(imageOf(10));
  h.leader = false;
  try {
    const { chunks, status } = await collectStream(client.snapshot({}, requireLeader()));
    assert.equal(status.code, grpc.status.UNAVAILABLE);
    assert.equal(status.details, 'etcdserver: no leader');
    assert.equal(chunks.length, 0);
    assert.equal(image.position, 0);
  } finally {
    h.leader = true;
  }
});
