/**
 * The frames that carry a request into an `H2Connection`: HEADERS + CONTINUATION (a header
 * block, opening a stream or ending it with trailers) and DATA — checked as RFC 9113 requires
 * of a server (server/transport/README.md, "What the connection enforces").
 *
 * It owns the HPACK decoding context (one per connection: every block is decoded, also one
 * refused, so the context follows the client's) and the header blocks being gathered.
 *
 * Contract:
 * - a well-formed request opens its stream through `core.streams.open` (the layer above's
 *   `onStream`); a malformed one is a stream error PROTOCOL_ERROR; a header list over
 *   `maxHeaderBytes` or a CONNECT is answered by a status-only block (431, 501) without reaching the layer above;
 *   streams beyond `maxConcurrentStreams` or opened after a GOAWAY are refused (REFUSED_STREAM);
 * - DATA is counted against both receive windows (receive-windows.ts) and the request's
 *   content-length, handed to the stream's consumer, and granted back at once unless the stream
 *   turned `autoGrant` off (padding is always granted back here: it reaches no consumer);
 * - errors: a connection error is thrown (`H2ConnectionError`), a stream error goes through
 *   `core.streams.error`; frames on a stream we reset are ignored (RFC 9113 §5.1).
 */
import type { BoundedHeaderBlockDecoder, HeaderField } from '../header-block-codec.js';
import { FrameFlag, H2Error, rstStreamFrame } from '../http2-frames.js';
import type { ConnectionCore } from './connection-core.js';
import type { ConnectionLimits } from './connection-options.js';
import { H2ConnectionError } from './connection-error.js';
import { FloodKind } from './flood-guard.js';
import type { H2Stream } from './h2-stream.js';
import { HeaderBlocks, type HeaderBlock } from './header-blocks.js';
import { checkRequestFields, checkTrailerFields } from './request-fields.js';
import { statusOnlyBlock } from './status-only-block.js';

/** The limits a request is read under (connection-options.ts). */
export type RequestLimits = Pick<ConnectionLimits, 'maxConcurrentStreams' | 'maxHeaderBytes' | 'maxHeaderBlockBytes'>;

export class RequestFrames {
  readonly #core: ConnectionCore;
  readonly #decoder: BoundedHeaderBlockDecoder;
  readonly #blocks: HeaderBlocks;
  readonly #maxStreams: number;
  readonly #maxHeaderBytes: number;

  constructor(core: ConnectionCore, decoder: BoundedHeaderBlockDecoder, limits: RequestLimits) {
    this.#core = core;
    this.#decoder = decoder;
    this.#blocks = new HeaderBlocks(limits.maxHeaderBlockBytes);
    this.#maxStreams = limits.maxConcurrentStreams;
    this.#maxHeaderBytes = limits.maxHeaderBytes;
  }

  /** A header block is open: only CONTINUATION frames may come until it ends (RFC 9113 §6.10). */
  get inHeaderBlock(): boolean {
    return this.#blocks.open;
  }

  /** A HEADERS or CONTINUATION frame. */
  headerFrame(type: number, flags: number, id: number, payload: Buffer): void {
    const result = this.#blocks.frame(type, flags, id, payload);
    if (result.emptyFragment) this.#core.spend(FloodKind.EmptyFrames, 'empty header block fragments');
    if (result.block !== undefined) this.#onHeaderBlock(result.block);
  }

  /** A DATA frame. */
  dataFrame(flags: number, id: number, payload: Buffer): void {
    const core = this.#core;
    const streams = core.streams;
    if (id === 0) throw new H2ConnectionError(H2Error.ProtocolError, 'DATA on stream 0');
    if (id > streams.history.lastOpened) throw new H2ConnectionError(H2Error.ProtocolError, `DATA on idle stream ${id}`);
    let data = payload;
    if (flags & FrameFlag.Padded) {
      if (payload.length < 1 || payload[0]! >= payload.length) throw new H2ConnectionError(H2Error.ProtocolError, 'DATA padding longer than the frame');
      data = payload.subarray(1, payload.length - payload[0]!);
    }
    core.recv.connectionData(payload.length);
    const endStream = (flags & FrameFlag.EndStream) !== 0;
    if (payload.length === 0 && !endStream) core.spend(FloodKind.EmptyFrames, 'empty DATA frames');
    const stream = streams.get(id);
    if (stream === undefined) {
      // RFC 9113 §5.1: frames on a stream we reset are ignored (the client may have sent them
      // before our RST_STREAM reached it); on any other closed stream, STREAM_CLOSED.
      const was = streams.history.stateOf(id);
      if (was.state === 'closed' && was.how === 'reset-sent') return;
      return streams.error(id, H2Error.StreamClosed);
    }
    if (stream.remoteEnded) return streams.error(id, H2Error.StreamClosed); // half-closed (remote)
    if (!core.recv.streamData(stream, payload.length)) return streams.error(id, H2Error.FlowControlError);
    stream.receivedLength += data.length;
    const expected = stream.expectedLength;
    if (expected !== undefined && (stream.receivedLength > expected || (endStream && stream.receivedLength !== expected))) {
      return streams.error(id, H2Error.ProtocolError); // §8.1.1: DATA and content-length disagree
    }
    if (data.length > 0) streams.receive(stream, data);
    if (stream.closed) return;
    if (!endStream && payload.length > 0) {
      // Padding counts against the window but reaches no consumer: granted back here.
      const granted = stream.autoGrant ? payload.length : payload.length - data.length;
      if (granted > 0) core.recv.consumed(stream, granted);
    }
    if (endStream) streams.remoteEnd(stream);
  }

  #onHeaderBlock(block: HeaderBlock): void {
    const core = this.#core;
    const streams = core.streams;
    const { streamId: id } = block;
    // The block is decoded even for a stream refused below: the HPACK context must follow every block.
    const fields = this.#decode(block.bytes);
    const endStream = (block.flags & FrameFlag.EndStream) !== 0;
    const existing = streams.get(id);
    if (existing !== undefined) {
      if (fields === undefined) return streams.error(id, H2Error.ProtocolError); // trailers over the list limit
      return this.#onTrailers(existing, block, fields);
    }
    if (id <= streams.history.lastOpened) {
      const was = streams.history.stateOf(id);
      if (was.state === 'unused') throw new H2ConnectionError(H2Error.ProtocolError, `stream ${id} opened after a higher one (RFC 9113 §5.1.1)`);
      if (was.state === 'closed' && was.how === 'reset-sent') return; // trailers sent before our RST_STREAM arrived
      throw new H2ConnectionError(H2Error.StreamClosed, `HEADERS on closed stream ${id}`);
    }
    streams.history.opened(id);
    if (block.dependsOnSelf) return streams.error(id, H2Error.ProtocolError);
    if (core.goingAway()) {
      core.queue(rstStreamFrame(id, H2Error.RefusedStream));
      streams.history.closed(id, 'reset-sent');
      return;
    }
    if (fields === undefined || listBytes(fields) > this.#maxHeaderBytes) return this.#answerOnly(id, 431, endStream);
    const check = checkRequestFields(fields);
    if (check.kind === 'malformed') return streams.error(id, H2Error.ProtocolError);
    if (endStream && (check.contentLength ?? 0) !== 0) return streams.error(id, H2Error.ProtocolError);
    if (check.method === 'CONNECT') return this.#answerOnly(id, 501, endStream);
    if (streams.size >= this.#maxStreams) return streams.error(id, H2Error.RefusedStream);
    streams.open(id, fields, check.contentLength, endStream);
  }

  /** A second header block on an open stream: the request's trailers (RFC 9113 §8.1). */
  #onTrailers(stream: H2Stream, block: HeaderBlock, fields: readonly HeaderField[]): void {
    const core = this.#core;
    if (stream.remoteEnded) return core.streams.error(stream.id, H2Error.StreamClosed); // half-closed (remote)
    if ((block.flags & FrameFlag.EndStream) === 0) throw new H2ConnectionError(H2Error.ProtocolError, `trailers without END_STREAM on stream ${stream.id}`);
    if (block.dependsOnSelf || checkTrailerFields(fields).kind === 'malformed' || listBytes(fields) > this.#maxHeaderBytes) {
      return core.streams.error(stream.id, H2Error.ProtocolError);
    }
    if (stream.expectedLength !== undefined && stream.receivedLength !== stream.expectedLength) return core.streams.error(stream.id, H2Error.ProtocolError);
    core.streams.remoteEnd(stream);
  }

  /** The block's fields; `undefined` when the list is over SETTINGS_MAX_HEADER_LIST_SIZE (the HPACK context is kept). */
  #decode(block: Buffer): readonly HeaderField[] | undefined {
    let decoded;
    try {
      decoded = this.#decoder.decode(block);
    } catch (e) {
      throw new H2ConnectionError(H2Error.CompressionError, `HPACK: ${String(e)}`, { cause: e });
    }
    if (decoded.kind === 'malformed') throw new H2ConnectionError(H2Error.CompressionError, decoded.reason);
    return decoded.kind === 'too-large' ? undefined : decoded.fields;
  }

  /** Refuses a request with a headers-only answer (431, 501) before the layer above sees it. */
  #answerOnly(id: number, status: number, requestEnded: boolean): void {
    const core = this.#core;
    core.spend(FloodKind.StreamErrors, 'refused requests');
    core.send.headers(id, statusOnlyBlock(status), true);
    // The rest of the request is not wanted (RFC 9113 §8.1).
    if (!requestEnded) core.queue(rstStreamFrame(id, H2Error.NoError));
    core.streams.history.closed(id, requestEnded ? 'ended' : 'reset-sent');
  }
}

/** A header list's size as SETTINGS_MAX_HEADER_LIST_SIZE counts it (RFC 9113 §6.5.2). */
function listBytes(fields: readonly HeaderField[]): number {
  let bytes = 0;
  for (const f of fields) bytes += f.name.length + f.value.length + 32;
  return bytes;
}
