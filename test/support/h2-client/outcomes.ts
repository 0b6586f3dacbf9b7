/**
 * What RFC 9113 requires of a server, as bounded waits on an `H2Client`:
 * - a connection error (§5.4.1): a GOAWAY with the code, or the connection closed (with no
 *   GOAWAY of another code before it);
 * - a stream error (§5.4.2): RST_STREAM on the stream with the code — or any connection error
 *   of that code, since an endpoint MAY treat a stream error as a connection error (§5.4.1);
 * - an answer: a complete response on the stream (`:status` 200 and a `grpc-status` trailer);
 * - liveness: a PING answered with an ACK carrying the same payload, no GOAWAY before.
 * Each rejects with the frames received when the server does something else or nothing.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { H2Client } from './connection.js';
import { codeName, describeFrame, ErrorCode, Flag, FrameType, ping, type Frame } from './frames.js';
import { fieldOf } from './grpc.js';
import type { Fields } from './hpack-bytes.js';

function goaways(c: H2Client): Frame[] {
  return c.received.filter((f) => f.type === FrameType.GOAWAY);
}

function goawayCode(f: Frame): number {
  return f.payload.length >= 8 ? f.payload.readUInt32BE(4) : -1;
}

function fail(c: H2Client, message: string): never {
  assert.fail(`${message}; received:\n  ${c.transcript()}`);
}

/** A connection error of `code`: GOAWAY(code), or a close with no GOAWAY of another code. */
export async function expectConnectionError(c: H2Client, code: number, timeoutMs?: number): Promise<void> {
  const outcome = await c.waitUntil(`connection error ${codeName(code)} (GOAWAY or close)`, () => {
    if (goaways(c).some((g) => goawayCode(g) === code)) return 'goaway';
    return c.closed ? 'closed' : undefined;
  }, timeoutMs);
  const others = goaways(c).filter((g) => goawayCode(g) !== code);
  if (outcome === 'closed' && others.length > 0) fail(c, `wanted a connection error ${codeName(code)}, got GOAWAY ${codeName(goawayCode(others[0]))}`);
}

/**
 * A stream error of one of `codes` on `streamId`, or a connection error of one of them (or a
 * close without a GOAWAY of another code).
 */
export async function expectStreamError(c: H2Client, streamId: number, codes: number | readonly number[], timeoutMs?: number): Promise<void> {
  const wanted = typeof codes === 'number' ? [codes] : codes;
  const names = wanted.map(codeName).join(' or ');
  const seen = await c.waitUntil(`stream error ${names} on stream ${streamId} (RST_STREAM, GOAWAY or close)`, () => {
    const rst = c.received.find((f) => f.type === FrameType.RST_STREAM && f.streamId === streamId);
    if (rst !== undefined) return rst;
    const g = goaways(c).find((x) => wanted.includes(goawayCode(x)));
    if (g !== undefined) return g;
    return c.closed ? 'closed' : undefined;
  }, timeoutMs);
  if (seen === 'closed') {
    const others = goaways(c).filter((g) => !wanted.includes(goawayCode(g)));
    if (others.length > 0) fail(c, `wanted ${names}, got GOAWAY ${codeName(goawayCode(others[0]))}`);
    return;
  }
  if (seen.type === FrameType.RST_STREAM) {
    const code = seen.payload.length === 4 ? seen.payload.readUInt32BE(0) : -1;
    if (!wanted.includes(code)) fail(c, `wanted ${names} on stream ${streamId}, got ${describeFrame(seen)}`);
  }
}

/** A complete answer on `streamId`: its header blocks (`:status` 200 first, `grpc-status` last) and DATA. */
export async function expectResponse(c: H2Client, streamId: number, timeoutMs?: number): Promise<{ blocks: Fields[]; data: Buffer; frames: Frame[] }> {
  await c.waitUntil(`a complete response on stream ${streamId}`, () => {
    const frames = c.onStream(streamId);
    const rst = frames.find((f) => f.type === FrameType.RST_STREAM);
    if (rst !== undefined) fail(c, `stream ${streamId} was reset instead of answered`);
    if (frames.some((f) => (f.type === FrameType.HEADERS || f.type === FrameType.DATA) && (f.flags & Flag.END_STREAM) !== 0)) {
      // the trailers' block is complete once END_HEADERS came (HEADERS or a CONTINUATION)
      const last = c.received.filter((f) => f.streamId === streamId && (f.type === FrameType.HEADERS || f.type === FrameType.CONTINUATION)).at(-1);
      if (last === undefined || (last.flags & Flag.END_HEADERS) !== 0) return true;
    }
    const badGoaway = goaways(c).find((g) => goawayCode(g) !== ErrorCode.NO_ERROR);
    if (badGoaway !== undefined) fail(c, `GOAWAY before stream ${streamId} was answered`);
    if (c.closed) fail(c, `connection closed before stream ${streamId} was answered`);
    return undefined;
  }, timeoutMs);
  const blocks = c.headerBlocks.get(streamId) ?? [];
  const frames = c.onStream(streamId);
  const data = Buffer.concat(frames.filter((f) => f.type === FrameType.DATA).map((f) => dataBody(f)));
  if (c.decodeError !== undefined) fail(c, `response headers did not decode: ${c.decodeError}`);
  assert.equal(fieldOf(blocks[0], ':status'), '200', `:status of stream ${streamId}: ${JSON.stringify(blocks)}`);
  assert.notEqual(fieldOf(blocks.at(-1), 'grpc-status'), undefined, `grpc-status trailer of stream ${streamId}: ${JSON.stringify(blocks)}`);
  return { blocks, data, frames };
}

/** The grpc-status of a response (trailers, or a trailers-only response). */
export function grpcStatus(blocks: Fields[]): string | undefined {
  return fieldOf(blocks.at(-1), 'grpc-status');
}

/** A DATA frame's body without its padding. */
export function dataBody(f: Frame): Buffer {
  if ((f.flags & Flag.PADDED) === 0) return f.payload;
  return f.payload.subarray(1, f.payload.length - f.payload[0]);
}

/** The connection still works: a PING is answered with an ACK of the same payload, and no GOAWAY came. */
export async function expectAlive(c: H2Client, timeoutMs?: number): Promise<void> {
  const opaque = randomBytes(8);
  c.write(ping(opaque));
  await c.waitUntil('a PING ACK', () => {
    const g = goaways(c)[0];
    if (g !== undefined) fail(c, 'the connection was shut down (GOAWAY)');
    if (c.closed) fail(c, 'the connection was closed');
    return c.received.some((f) => f.type === FrameType.PING && (f.flags & Flag.ACK) !== 0 && f.payload.equals(opaque)) ? true : undefined;
  }, timeoutMs);
}

/** No GOAWAY and no RST_STREAM arrived so far. */
export function expectNoErrors(c: H2Client): void {
  const bad = c.received.find((f) => f.type === FrameType.GOAWAY || f.type === FrameType.RST_STREAM);
  if (bad !== undefined) fail(c, `unexpected ${describeFrame(bad)}`);
}
