/**
 * Decides how an HTTP/2 client connection reaches the gRPC server: handed over as is ('plain',
 * the fast path) or through the authority-rewriting relay ('relay'), from the bytes the client
 * sent after its preface.
 *
 * Why the listener speaks first: Go gRPC clients (etcdctl) send no request before the server's
 * SETTINGS arrive. So, right after the preface, the listener sends an empty SETTINGS frame on the
 * server's behalf (legal: a server may send several SETTINGS; the server's own follows once it
 * gets the connection). The client ACKs it; that ACK must never reach the server (it would
 * answer a SETTINGS the server did not send), so the plain hand-off cuts it out of the bytes read
 * so far, and the relay drops it on the way (client-frame-rewriter.ts).
 *
 * Contract: pure. `inspectOpening(bytes, final)` looks at the bytes received so far (starting
 * with the 24-byte preface) and answers
 * - 'wait' while more bytes may change the answer (never when `final`);
 * - 'plain' with the bytes to hand the server (the ACK removed) once the client's ACK is in and
 *   either the first header block is complete with an accepted (or no) `:authority`, or no
 *   request is coming yet (a frame that wants an answer, such as PING, or `final`);
 * - 'relay' once the first header block carries a refused `:authority`, or at `final` while the
 *   ACK is still due (only the relay can drop it later).
 * Unparseable bytes (a malformed header block or HPACK data, a decoder that throws) count as
 * "no request": the server rejects them itself. Never throws, whatever the bytes.
 */
import { acceptedAuthority } from './authority.js';
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
    }
  | { readonly route: 'relay'; readonly authority: string | undefined; readonly reason: string };

/** Frames a client may send before its first request without waiting for an answer. */
const QUIET_FRAMES: ReadonlySet<number> = new Set([FrameType.Settings, FrameType.WindowUpdate, FrameType.Priority]);

type FirstBlock =
  | { readonly state: 'none' }
  | { readonly state: 'complete'; readonly authority: string | undefined; readonly contentType: string | undefined }
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
    return { ack: ack ?? findAck(bytes, offset), firstBlock: { state: 'complete', authority: fieldValue(decoded.fields, ':authority'), contentType: fieldValue(decoded.fields, 'content-type') }, loud: undefined };
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
  if (firstBlock.state === 'complete' && firstBlock.authority !== undefined && !acceptedAuthority(firstBlock.authority)) {
    return { route: 'relay', authority: firstBlock.authority, reason: 'first request carries a refused :authority' };
  }
  if (ack !== undefined) {
    const plain = (reason: string, firstRequestGrpc?: boolean): OpeningDecision => ({ route: 'plain', bytes: withoutAck(bytes, ack), reason, firstRequestGrpc });
    if (firstBlock.state === 'complete') return plain('first request is acceptable', (firstBlock.contentType ?? '').startsWith('application/grpc'));
    if (firstBlock.state === 'unusable') return plain(firstBlock.reason);
    if (loud !== undefined) return plain(loud);
    if (final) return plain('no request yet');
    return { route: 'wait' };
  }
  if (final || loud !== undefined || firstBlock.state === 'unusable') {
    return { route: 'relay', authority: undefined, reason: `SETTINGS ACK still due (${loud ?? (firstBlock.state === 'unusable' ? firstBlock.reason : 'no request yet')})` };
  }
  return { route: 'wait' };
}
