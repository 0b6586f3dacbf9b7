/**
 * Maintenance.Snapshot replies as ready gRPC frames, for the stream served on HTTP/2 directly
 * (framed-stream.ts): each block holds up to 32 length-prefixed SnapshotResponse messages
 * (`remaining_bytes` 2, `blob` 3 of SNAPSHOT_CHUNK bytes — the same messages, bytes and order
 * as the grpc-js path's replies), and the image is read straight into the blob slots of the
 * block, so a 32 KiB chunk is copied once, from the page buffers into the frame.
 * The last block is the checksum message (`blob` = SHA-256 of the image, `remaining_bytes` 0).
 */
import { SNAPSHOT_CHUNK, type SnapshotImage } from '../../snapshot/stream.js';

const CHUNKS_PER_BLOCK = 32;
const PREFIX_BYTES = 5;
const TAG_REMAINING = 0x10; // field 2, varint
const TAG_BLOB = 0x1a; // field 3, length-delimited

function varintBytes(v: number): number {
  let n = 1;
  for (let x = v; x >= 0x80; x = Math.floor(x / 0x80)) n++;
  return n;
}

function putVarint(buf: Buffer, at: number, v: number): number {
  let p = at;
  let x = v;
  while (x >= 0x80) {
    buf[p++] = (x % 0x80) | 0x80;
    x = Math.floor(x / 0x80);
  }
  buf[p++] = x;
  return p;
}

/** Writes one frame's prefix and message head at `at`; returns where its blob goes. */
function putHead(buf: Buffer, at: number, remaining: number, blobBytes: number): number {
  const head = (remaining === 0 ? 0 : 1 + varintBytes(remaining)) + 1 + varintBytes(blobBytes);
  buf[at] = 0;
  buf.writeUInt32BE(head + blobBytes, at + 1);
  let p = at + PREFIX_BYTES;
  if (remaining !== 0) {
    buf[p++] = TAG_REMAINING;
    p = putVarint(buf, p, remaining);
  }
  buf[p++] = TAG_BLOB;
  return putVarint(buf, p, blobBytes);
}

function frameBytes(remaining: number, blobBytes: number): number {
  return PREFIX_BYTES + (remaining === 0 ? 0 : 1 + varintBytes(remaining)) + 1 + varintBytes(blobBytes) + blobBytes;
}

/** One block of frames and how many messages it holds. */
export interface FrameBlock {
  readonly frames: Buffer;
  readonly messages: number;
}

/** The next block of `image`, being read into its blob slots. */
function nextBlock(image: SnapshotImage): { readonly block: FrameBlock; readonly read: Promise<void> } {
  const chunks = Math.min(CHUNKS_PER_BLOCK, Math.ceil(image.remaining / SNAPSHOT_CHUNK));
  let remaining = image.remaining;
  let bytes = 0;
  for (let i = 0; i < chunks; i++) {
    const blob = Math.min(SNAPSHOT_CHUNK, remaining);
    remaining -= blob;
    bytes += frameBytes(remaining, blob);
  }
  const frames = Buffer.allocUnsafe(bytes);
  const slots: Buffer[] = [];
  remaining = image.remaining;
  let at = 0;
  for (let i = 0; i < chunks; i++) {
    const blob = Math.min(SNAPSHOT_CHUNK, remaining);
    remaining -= blob;
    const start = putHead(frames, at, remaining, blob);
    slots.push(frames.subarray(start, start + blob));
    at = start + blob;
  }
  const read = image.readInto(slots);
  // Awaited by the generator later; handled now so a failure while the block waits is not unhandled.
  read.catch(() => undefined);
  return { block: { frames, messages: chunks }, read };
}

/**
 * The frames of `image`, block by block, then the checksum frame; the next block is read
 * while the consumer sends this one. Does not close `image`.
 */
export async function* snapshotFrames(image: SnapshotImage): AsyncGenerator<FrameBlock> {
  let next = image.remaining > 0 ? nextBlock(image) : undefined;
  try {
    while (next !== undefined) {
      const { block, read } = next;
      next = undefined;
      await read;
      if (image.remaining > 0) next = nextBlock(image);
      yield block;
    }
  } finally {
    // A consumer that stops early: the read in flight finishes before the image is closed.
    if (next !== undefined) await next.read.catch(() => undefined);
  }
  const digest = image.digest();
  const last = Buffer.allocUnsafe(frameBytes(0, digest.length));
  digest.copy(last, putHead(last, 0, 0, digest.length));
  yield { frames: last, messages: 1 };
}
