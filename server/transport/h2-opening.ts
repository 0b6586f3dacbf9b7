/**
 * Reads an HTTP/2 client connection up to its first request, so that the client port knows
 * whether that request is a gRPC call (over TLS, an HTTP/2 connection whose first request is
 * not one goes to the HTTP handler, as etcd routes by content type there).
 *
 * Why the listener speaks first: Go gRPC clients (etcdctl) send no request before the server's
 * SETTINGS arrive. So, right after the preface, the listener sends an empty SETTINGS frame on the
 * server's behalf (legal: a server may send several SETTINGS; the server's own follows once it
 * gets the connection). The client ACKs it; that ACK must not reach a server that did not send
 * it (Node's HTTP/2 layer, for the HTTP handler), so the hand-off cuts it out of the bytes read
 * so far when it has arrived (our own framing takes a late one as the ACK of its own SETTINGS).
 *
 * Contract: pure. `inspectOpening(bytes, final)` looks at the bytes received so far (starting
 * with the 24-byte preface) and answers
 * - 'wait' while more bytes may change the answer (never when `final`);
 * - 'plain' with the bytes to hand over (the ACK removed when it is in): once the first header
 *   block is complete and the client's ACK is in; at once when no request is coming yet (a
 *   frame that wants an answer, such as PING) or the first block cannot be read; at `final`
 *   whatever came.
 * Unparseable bytes (a malformed header block or HPACK data, a decoder that throws) count as
 * "no request": the server rejects them itself. Never throws, whatever the bytes.
 */
import { createHeaderBlockDecoder, fieldValue, type DecodeResult } from './header-block-codec.js';
import { FRAME_HEADER_LENGTH, FrameFlag, FrameType, frameComplete, headerBlockFragment, readFrameHeader } from './http2-frames.js';
import { HTTP2_PREFACE } from './protocol-sniff.js';

export type OpeningDecision =
  | { readonly route: 'wait' }
  | {
      readonly route: 'plain';
      readonly bytes: Buffer;
      readonly reason: string;
      /** Whether the first request is a gRPC call (`content-type: application/grpc…`); undefined when none was read. */
      readonly firstRequestGrpc: boolean | undefined;
    };

/** Frames a client may send before its first request without waiting for an answer. */
const QUIET_FRAMES: ReadonlySet<number> = new Set([FrameType.Settings, FrameType.WindowUpdate, FrameType.Priority]);

type FirstBlock =
  | { readonly state: 'none' }
  | { readonly state: 'complete'; readonly contentType: string | undefined }
  | { readonly state: 'unusable'; readonly reason: string };

interface Scan {
  readonly ack: { readonly start: number; readonly end: number } | undefined;
  readonly firstBlock: FirstBlock;
  /** A frame that wants an answer (or a request we cannot read) arrived before any request. */
  readonly loud: string | undefined;
}

function scan(bytes: Buffer): Scan {
  let ack: Scan['ack'];
  let offset = HTTP2_PREFACE.length;
  let fragments: Buffer[] | undefined;
  let blockStream = 0;
  for (;;) {
    const header = readFrameHeader(bytes, offset);
    if (header === undefined || !frameComplete(bytes, offset, header)) break;
    const start = offset;
    const payload = bytes.subarray(offset + FRAME_HEADER_LENGTH, offset + FRAME_HEADER_LENGTH + header.length);
    offset += FRAME_HEADER_LENGTH + header.length;
    if (fragments !== undefined) {
      if (header.type !== FrameType.Continuation || header.streamId !== blockStream) {
        return { ack, firstBlock: { state: 'unusable', reason: 'frame inside a header block' }, loud: undefined };
      }
    } else if (header.type === FrameType.Settings && (header.flags & FrameFlag.Ack) !== 0) {
      ack ??= { start, end: offset };
      continue;
    } else if (header.type !== FrameType.Headers) {
      if (QUIET_FRAMES.has(header.type)) continue;
      return { ack, firstBlock: { state: 'none' }, loud: `frame type ${header.type} before the first request` };
    }
    const part = headerBlockFragment(header.type, header.flags, payload);
    if (part.kind === 'malformed') return { ack, firstBlock: { state: 'unusable', reason: part.reason }, loud: undefined };
    fragments ??= [];
    blockStream = header.streamId;
    fragments.push(part.fragment);
    if ((header.flags & FrameFlag.EndHeaders) === 0) continue;
    const decoded = decodeBlock(Buffer.concat(fragments));
    if (decoded.kind === 'malformed') return { ack, firstBlock: { state: 'unusable', reason: decoded.reason }, loud: undefined };
    // Later frames matter only for finding the ACK.
    return { ack: ack ?? findAck(bytes, offset), firstBlock: { state: 'complete', contentType: fieldValue(decoded.fields, 'content-type') }, loud: undefined };
  }
  return { ack, firstBlock: { state: 'none' }, loud: undefined };
}

/** The block decoded; a decoder that throws (whatever the bytes) counts as a malformed block. */
function decodeBlock(block: Buffer): DecodeResult {
  try {
    return createHeaderBlockDecoder().decode(block);
  } catch (e) {
    return { kind: 'malformed', reason: `HPACK decoder failed: ${String(e)}` };
  }
}

function findAck(bytes: Buffer, from: number): Scan['ack'] {
  let offset = from;
  for (;;) {
    const header = readFrameHeader(bytes, offset);
    if (header === undefined || !frameComplete(bytes, offset, header)) return undefined;
    const start = offset;
    offset += FRAME_HEADER_LENGTH + header.length;
    if (header.type === FrameType.Settings && (header.flags & FrameFlag.Ack) !== 0) return { start, end: offset };
  }
}

function withoutAck(bytes: Buffer, ack: NonNullable<Scan['ack']>): Buffer {
  return Buffer.concat([bytes.subarray(0, ack.start), bytes.subarray(ack.end)]);
}

export function inspectOpening(bytes: Buffer, final: boolean): OpeningDecision {
  const { ack, firstBlock, loud } = scan(bytes);
  const grpc = firstBlock.state === 'complete' ? (firstBlock.contentType ?? '').startsWith('application/grpc') : undefined;
  const plain = (reason: string): OpeningDecision => ({ route: 'plain', bytes: ack === undefined ? bytes : withoutAck(bytes, ack), reason, firstRequestGrpc: grpc });
  const reason = firstBlock.state === 'unusable' ? firstBlock.reason : loud;
  // A frame that wants an answer, or a request we cannot read, goes to our framing at once.
  if (reason !== undefined) return plain(reason);
  // A readable first request waits for the ACK (to cut it out for the HTTP handler's server).
  if (ack !== undefined && firstBlock.state === 'complete') return plain('first request read');
  if (final) return plain(ack === undefined ? 'SETTINGS ACK not sent yet' : 'no request yet');
  return { route: 'wait' };
}
