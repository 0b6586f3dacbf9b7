/**
 * The server side of one HTTP/2 connection (RFC 9113), framed in JavaScript on the socket:
 * what lets a call be answered with plain objects only (server/README.md, "What our own HTTP/2
 * framing would save": Node's per-stream objects are freed only by mark-compacts).
 *
 * Scope: what gRPC clients use, with everything RFC 9113 requires of a server checked
 * (server/transport/README.md, "What the connection enforces"). The connection preface and
 * SETTINGS (ours sent first; theirs applied and acknowledged), PING answered, HEADERS +
 * CONTINUATION decoded with one HPACK context (`header-block-codec.ts`; our blocks are encoded
 * by the caller, table-free) and checked (`request-fields.ts`), DATA with both directions' flow
 * control and the request's content-length, RST_STREAM, WINDOW_UPDATE, PRIORITY checked and
 * otherwise ignored, GOAWAY. Every frame queued during a turn leaves in one socket write.
 *
 * Contract:
 * - `onStream` is called once per well-formed request stream, when its header block is
 *   complete; a malformed one is reset (PROTOCOL_ERROR) without reaching it;
 * - a connection error: GOAWAY with its code and the last stream id, every open stream reset
 *   (their `onReset`), the socket ended; a stream error resets that stream (RST_STREAM, and its
 *   `onReset` when the layer above had it);
 * - floods (flood-guard.ts) are a connection error ENHANCE_YOUR_CALM;
 * - the layer above cannot break the connection: a throw from `onStream` or a stream callback
 *   resets that stream (INTERNAL_ERROR) and is reported once through `onStreamFault`; a throw
 *   anywhere else while reading is a connection error INTERNAL_ERROR (`onError`). Nothing thrown
 *   leaves the socket's event handlers. `onStreamFault`, `onError` and `onClose` must not throw;
 * - the client's windows bound what is queued for it: `H2Stream.write` returns false and
 *   `onDrain` follows once its data has gone out; received data is granted back at once unless
 *   the stream turns `autoGrant` off;
 * - `goAway()` refuses new streams and ends the socket once the open ones are done;
 *   `destroy()` drops everything at once. `onClose` is called once, when the socket is gone.
 */
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { createHeaderBlockDecoder, type BoundedHeaderBlockDecoder, type HeaderField } from '../header-block-codec.js';
import {
  DEFAULT_MAX_FRAME_SIZE,
  encodeFrame,
  FrameFlag,
  frameHeader,
  FrameType,
  goAwayFrame,
  H2Error,
  rstStreamFrame,
  SettingId,
  settingsFrame,
  windowUpdateFrame,
} from '../http2-frames.js';
import { H2ConnectionError } from './connection-error.js';
import { FloodGuard, FloodKind, type FloodBounds } from './flood-guard.js';
import { FrameOut } from './frame-out.js';
import { FrameReader } from './frame-reader.js';
import { H2Stream, type StreamSink } from './h2-stream.js';
import { HeaderBlocks, type HeaderBlock } from './header-blocks.js';
import { MAX_WINDOW, readPeerSettings } from './peer-settings.js';
import { checkRequestFields, checkTrailerFields } from './request-fields.js';
import { statusOnlyBlock } from './status-only-block.js';
import { StreamHistory, type ClosedHow } from './stream-history.js';

const DEFAULT_WINDOW = 65_535;
/**
 * Bytes the socket may hold unsent before the connection is dropped, by default: header blocks
 * are not flow-controlled, so a client that sends calls and never reads their answers is cut
 * off there (frame-out.ts).
 */
const MAX_UNSENT = 64 << 20;

export interface H2ConnectionOptions {
  /** Streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS). Default 1000. */
  readonly maxConcurrentStreams?: number;
  /** Our receive window per stream (SETTINGS_INITIAL_WINDOW_SIZE). Default 1 MiB. */
  readonly streamWindow?: number;
  /** Our receive window for the whole connection. Default 16 MiB. */
  readonly connectionWindow?: number;
  /** Largest request header list, decoded (SETTINGS_MAX_HEADER_LIST_SIZE). Default 64 KiB; larger: 431. */
  readonly maxHeaderBytes?: number;
  /** Encoded bytes one header block may span over HEADERS + CONTINUATION. Default 4 × `maxHeaderBytes`. */
  readonly maxHeaderBlockBytes?: number;
  /** Bytes the socket may hold unsent before the connection is dropped (ENHANCE_YOUR_CALM). Default 64 MiB. */
  readonly maxUnsentBytes?: number;
  /** Flood bounds (flood-guard.ts); a kind left out keeps its default. */
  readonly floods?: Partial<FloodBounds>;
  /** Closed stream ids remembered with how they closed (stream-history.ts). Default 4096. */
  readonly closedStreamMemory?: number;
  /** The flood bounds' clock: monotonic milliseconds. Default `performance.now`. */
  readonly now?: () => number;
}

/** What `onStreamFault` is told of the stream whose callback threw. */
export interface StreamFaultInfo {
  readonly streamId: number;
  readonly method?: string;
  readonly path?: string;
}

export class H2Connection implements StreamSink {
  readonly #socket: Duplex;
  readonly #decoder: BoundedHeaderBlockDecoder;
  readonly #streams = new Map<number, H2Stream>();
  readonly #history: StreamHistory;
  readonly #floods: FloodGuard;
  readonly #now: () => number;
  readonly #reader = new FrameReader(DEFAULT_MAX_FRAME_SIZE);
  readonly #blocks: HeaderBlocks;
  readonly #maxStreams: number;
  readonly #streamWindow: number;
  readonly #connectionWindow: number;
  readonly #maxHeaderBytes: number;
  readonly #out: FrameOut;
  /** Streams whose fault was reported (reported once). */
  readonly #faulted = new WeakSet<H2Stream>();
  /** The client's settings as they apply to what we send. */
  #peerWindow = DEFAULT_WINDOW;
  #peerMaxFrame = DEFAULT_MAX_FRAME_SIZE;
  /** Connection-level windows: what we may send, what the client may still send. */
  #sendWindow = DEFAULT_WINDOW;
  #recvWindow: number;
  #recvUngranted = 0;
  /** Connection window granted during the chunk being read: the client cannot have seen it yet. */
  #recvGranting = 0;
  /** The stream being opened by a HEADERS frame with END_STREAM, while `onStream` runs. */
  #openingEnded: H2Stream | undefined;
  /** Streams with data waiting for a window (the connection's or their own), in the order they queued. */
  readonly #waiting = new Set<H2Stream>();
  #goingAway = false;
  #closed = false;
  onStream: (stream: H2Stream) => void = (s) => s.reset(H2Error.RefusedStream);
  onClose: (() => void) | undefined;
  /** A connection error, for the caller's log. */
  onError: ((err: Error) => void) | undefined;
  /** A callback of the layer above threw (`onStream` or a stream's): reported once per stream. */
  onStreamFault: ((err: unknown, info: StreamFaultInfo) => void) | undefined;

  constructor(socket: Duplex, options: H2ConnectionOptions = {}) {
    this.#socket = socket;
    this.#maxStreams = options.maxConcurrentStreams ?? 1000;
    this.#streamWindow = options.streamWindow ?? 1 << 20;
    this.#connectionWindow = options.connectionWindow ?? 16 << 20;
    this.#maxHeaderBytes = options.maxHeaderBytes ?? 64 << 10;
    // We advertise no SETTINGS_HEADER_TABLE_SIZE: the client's table is the initial 4096 bytes. A list
    // over the limit is not collected past it (an HPACK bomb costs no memory) but still decoded whole.
    this.#decoder = createHeaderBlockDecoder({ maxTableSize: 4096, maxHeaderListBytes: this.#maxHeaderBytes });
    this.#blocks = new HeaderBlocks(options.maxHeaderBlockBytes ?? 4 * this.#maxHeaderBytes);
    this.#history = new StreamHistory(options.closedStreamMemory ?? 4096);
    this.#now = options.now ?? (() => performance.now());
    this.#floods = new FloodGuard(options.floods ?? {}, this.#now());
    this.#out = new FrameOut(socket, options.maxUnsentBytes ?? MAX_UNSENT, (unsent) =>
      this.#fail(new H2ConnectionError(H2Error.EnhanceYourCalm, `client reads no answers (${unsent} bytes unsent)`)),
    );
    this.#recvWindow = DEFAULT_WINDOW;
    this.#queue(
      settingsFrame([
        [SettingId.MaxConcurrentStreams, this.#maxStreams],
        [SettingId.InitialWindowSize, this.#streamWindow],
        [SettingId.MaxHeaderListSize, this.#maxHeaderBytes],
      ]),
    );
    if (this.#connectionWindow > DEFAULT_WINDOW) {
      this.#queue(windowUpdateFrame(0, this.#connectionWindow - DEFAULT_WINDOW));
      this.#recvWindow = this.#connectionWindow;
    }
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', () => this.destroy());
    socket.on('close', () => this.#onSocketClose());
    socket.on('end', () => this.destroy());
  }

  /** Open streams. */
  get streamCount(): number {
    return this.#streams.size;
  }

  /** Feeds bytes already read from the socket (e.g. by a protocol sniffer), before any new ones. */
  receive(bytes: Buffer): void {
    this.#onData(bytes);
  }

  /** Refuses new streams; ends the connection once the open ones are done. */
  goAway(): void {
    if (this.#goingAway || this.#closed) return;
    this.#goingAway = true;
    this.#queue(goAwayFrame(this.#history.lastOpened, H2Error.NoError));
    this.#endIfIdle();
  }

  /** Drops the connection and every stream on it. */
  destroy(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const s of [...this.#streams.values()]) this.#closeStream(s, 'reset-sent', H2Error.Cancel);
    this.#socket.destroy();
  }

  // ---- StreamSink: what streams ask of the connection ----

  sendHeaders(stream: H2Stream, block: Buffer, endStream: boolean): void {
    if (stream.closed) return;
    this.#queueHeaders(stream.id, block, endStream);
    if (endStream) this.#finishLocal(stream);
  }

  sendData(stream: H2Stream, data: Buffer): number {
    if (stream.closed) return 0;
    if (stream.pending.length > 0) {
      stream.pending.push(data);
      stream.pendingBytes += data.length;
      return stream.pendingBytes;
    }
    const left = this.#sendNow(stream, data);
    if (left.length > 0) {
      stream.pending.push(left);
      stream.pendingBytes += left.length;
      this.#waiting.add(stream);
    }
    return stream.pendingBytes;
  }

  sendTrailers(stream: H2Stream, block: Buffer): void {
    if (stream.closed) return;
    if (stream.pending.length > 0) {
      stream.trailers = block;
      return;
    }
    this.#queueHeaders(stream.id, block, true);
    this.#finishLocal(stream);
  }

  sendReset(stream: H2Stream, code: number): void {
    if (stream.closed) return;
    this.#queue(rstStreamFrame(stream.id, code));
    this.#closeStream(stream, 'reset-sent', undefined);
  }

  consumed(stream: H2Stream, bytes: number): void {
    if (stream.closed || stream.remoteEnded || bytes <= 0) return;
    // Granted in halves of the window, not per frame.
    stream.ungranted += bytes;
    if (stream.ungranted < this.#streamWindow / 2) return;
    stream.recvWindow += stream.ungranted;
    this.#queue(windowUpdateFrame(stream.id, stream.ungranted));
    stream.ungranted = 0;
  }

  // ---- reading ----

  #onData(chunk: Buffer): void {
    if (this.#closed) return;
    try {
      this.#reader.push(
        chunk,
        (type, flags, id, payload) => this.#onFrame(type, flags, id, payload),
        () => !this.#closed,
      );
      this.#recvWindow += this.#recvGranting;
      this.#recvGranting = 0;
    } catch (e) {
      // A fault of ours while reading is still only this connection's end.
      this.#fail(e instanceof H2ConnectionError ? e : new H2ConnectionError(H2Error.InternalError, `internal error while reading: ${String(e)}`, { cause: e }));
    }
  }

  #onFrame(type: number, flags: number, id: number, payload: Buffer): void {
    if (this.#blocks.open && type !== FrameType.Continuation) throw new H2ConnectionError(H2Error.ProtocolError, `frame type ${type} inside a header block`);
    switch (type) {
      case FrameType.Data:
        return this.#onDataFrame(flags, id, payload);
      case FrameType.Headers:
      case FrameType.Continuation: {
        const result = this.#blocks.frame(type, flags, id, payload);
        if (result.emptyFragment) this.#spend(FloodKind.EmptyFrames, 'empty header block fragments');
        if (result.block !== undefined) this.#onHeaderBlock(result.block);
        return;
      }
      case FrameType.Priority:
        return this.#onPriority(id, payload);
      case FrameType.RstStream:
        return this.#onReset(id, payload);
      case FrameType.Settings:
        return this.#onSettings(flags, id, payload);
      case FrameType.PushPromise:
        throw new H2ConnectionError(H2Error.ProtocolError, 'PUSH_PROMISE from a client');
      case FrameType.Ping:
        if (id !== 0) throw new H2ConnectionError(H2Error.ProtocolError, 'PING on a stream');
        if (payload.length !== 8) throw new H2ConnectionError(H2Error.FrameSizeError, 'PING of the wrong size');
        if (flags & FrameFlag.Ack) {
          this.#spend(FloodKind.EmptyFrames, 'PING ACKs never asked for'); // we send no PING
          return;
        }
        this.#spend(FloodKind.Ping, 'PING flood');
        this.#queue(encodeFrame(FrameType.Ping, FrameFlag.Ack, 0, payload));
        return;
      case FrameType.GoAway:
        if (id !== 0) throw new H2ConnectionError(H2Error.ProtocolError, 'GOAWAY on a stream');
        if (payload.length < 8) throw new H2ConnectionError(H2Error.FrameSizeError, 'GOAWAY shorter than 8 bytes');
        this.#goingAway = true; // any error code, known or not
        this.#endIfIdle();
        return;
      case FrameType.WindowUpdate:
        return this.#onWindowUpdate(id, payload);
      default:
        // Unknown frame types are ignored (RFC 9113 §4.1, §5.5), within the empty-frame bound.
        this.#spend(FloodKind.EmptyFrames, 'frames of unknown types');
        return;
    }
  }

  #onDataFrame(flags: number, id: number, payload: Buffer): void {
    if (id === 0) throw new H2ConnectionError(H2Error.ProtocolError, 'DATA on stream 0');
    if (id > this.#history.lastOpened) throw new H2ConnectionError(H2Error.ProtocolError, `DATA on idle stream ${id}`);
    let data = payload;
    if (flags & FrameFlag.Padded) {
      if (payload.length < 1 || payload[0]! >= payload.length) throw new H2ConnectionError(H2Error.ProtocolError, 'DATA padding longer than the frame');
      data = payload.subarray(1, payload.length - payload[0]!);
    }
    this.#recvWindow -= payload.length;
    if (this.#recvWindow < 0) throw new H2ConnectionError(H2Error.FlowControlError, 'DATA beyond the connection window');
    this.#grantConnection(payload.length);
    const endStream = (flags & FrameFlag.EndStream) !== 0;
    if (payload.length === 0 && !endStream) this.#spend(FloodKind.EmptyFrames, 'empty DATA frames');
    const stream = this.#streams.get(id);
    if (stream === undefined) {
      // RFC 9113 §5.1: frames on a stream we reset are ignored (the client may have sent them
      // before our RST_STREAM reached it); on any other closed stream, STREAM_CLOSED.
      const was = this.#history.stateOf(id);
      if (was.state === 'closed' && was.how === 'reset-sent') return;
      return this.#streamError(id, H2Error.StreamClosed);
    }
    if (stream.remoteEnded) return this.#streamError(id, H2Error.StreamClosed); // half-closed (remote)
    stream.recvWindow -= payload.length;
    if (stream.recvWindow < 0) return this.#streamError(id, H2Error.FlowControlError);
    stream.receivedLength += data.length;
    const expected = stream.expectedLength;
    if (expected !== undefined && (stream.receivedLength > expected || (endStream && stream.receivedLength !== expected))) {
      return this.#streamError(id, H2Error.ProtocolError); // §8.1.1: DATA and content-length disagree
    }
    if (data.length > 0) this.#guard(stream, () => stream.receive(data));
    if (stream.closed) return;
    if (!endStream && payload.length > 0) {
      // Padding counts against the window but reaches no consumer: granted back here.
      const granted = stream.autoGrant ? payload.length : payload.length - data.length;
      if (granted > 0) this.consumed(stream, granted);
    }
    if (endStream) this.#remoteEnd(stream);
  }

  #onHeaderBlock(block: HeaderBlock): void {
    const { streamId: id } = block;
    // The block is decoded even for a stream refused below: the HPACK context must follow every block.
    const fields = this.#decode(block.bytes);
    const endStream = (block.flags & FrameFlag.EndStream) !== 0;
    const existing = this.#streams.get(id);
    if (existing !== undefined) {
      if (fields === undefined) return this.#streamError(id, H2Error.ProtocolError); // trailers over the list limit
      return this.#onTrailers(existing, block, fields);
    }
    if (id <= this.#history.lastOpened) {
      const was = this.#history.stateOf(id);
      if (was.state === 'unused') throw new H2ConnectionError(H2Error.ProtocolError, `stream ${id} opened after a higher one (RFC 9113 §5.1.1)`);
      if (was.state === 'closed' && was.how === 'reset-sent') return; // trailers sent before our RST_STREAM arrived
      throw new H2ConnectionError(H2Error.StreamClosed, `HEADERS on closed stream ${id}`);
    }
    this.#history.opened(id);
    if (block.dependsOnSelf) return this.#streamError(id, H2Error.ProtocolError);
    if (this.#goingAway) {
      this.#queue(rstStreamFrame(id, H2Error.RefusedStream));
      this.#history.closed(id, 'reset-sent');
      return;
    }
    if (fields === undefined || listBytes(fields) > this.#maxHeaderBytes) return this.#answerOnly(id, 431, endStream);
    const check = checkRequestFields(fields);
    if (check.kind === 'malformed') return this.#streamError(id, H2Error.ProtocolError);
    if (endStream && (check.contentLength ?? 0) !== 0) return this.#streamError(id, H2Error.ProtocolError);
    if (check.method === 'CONNECT') return this.#answerOnly(id, 501, endStream);
    if (this.#streams.size >= this.#maxStreams) return this.#streamError(id, H2Error.RefusedStream);
    const stream = new H2Stream(id, fields, this, this.#streamWindow, this.#peerWindow);
    stream.expectedLength = check.contentLength;
    this.#streams.set(id, stream);
    // An answer given within onStream to a request that ended with its HEADERS closes the stream
    // as ended on both sides (#finishLocal), not with a RST_STREAM declining the rest.
    this.#openingEnded = endStream ? stream : undefined;
    this.#guard(stream, () => this.onStream(stream));
    this.#openingEnded = undefined;
    if (endStream && !stream.closed) this.#remoteEnd(stream);
  }

  /** A second header block on an open stream: the request's trailers (RFC 9113 §8.1). */
  #onTrailers(stream: H2Stream, block: HeaderBlock, fields: readonly HeaderField[]): void {
    if (stream.remoteEnded) return this.#streamError(stream.id, H2Error.StreamClosed); // half-closed (remote)
    if ((block.flags & FrameFlag.EndStream) === 0) throw new H2ConnectionError(H2Error.ProtocolError, `trailers without END_STREAM on stream ${stream.id}`);
    if (block.dependsOnSelf || checkTrailerFields(fields).kind === 'malformed' || listBytes(fields) > this.#maxHeaderBytes) {
      return this.#streamError(stream.id, H2Error.ProtocolError);
    }
    if (stream.expectedLength !== undefined && stream.receivedLength !== stream.expectedLength) return this.#streamError(stream.id, H2Error.ProtocolError);
    this.#remoteEnd(stream);
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

  #onPriority(id: number, payload: Buffer): void {
    if (id === 0) throw new H2ConnectionError(H2Error.ProtocolError, 'PRIORITY on stream 0');
    this.#spend(FloodKind.Priority, 'PRIORITY flood');
    // Stream errors on an idle stream would need a RST_STREAM there, which RFC 9113 §6.4 forbids: connection errors.
    const idle = id > this.#history.lastOpened;
    if (payload.length !== 5) {
      if (idle) throw new H2ConnectionError(H2Error.FrameSizeError, 'PRIORITY of the wrong size');
      return this.#streamError(id, H2Error.FrameSizeError);
    }
    if ((payload.readUInt32BE(0) & 0x7fff_ffff) === id) {
      if (idle) throw new H2ConnectionError(H2Error.ProtocolError, `stream ${id} depends on itself`);
      return this.#streamError(id, H2Error.ProtocolError);
    }
  }

  #onReset(id: number, payload: Buffer): void {
    if (id === 0) throw new H2ConnectionError(H2Error.ProtocolError, 'RST_STREAM on stream 0');
    if (payload.length !== 4) throw new H2ConnectionError(H2Error.FrameSizeError, 'RST_STREAM of the wrong size');
    if (id > this.#history.lastOpened) throw new H2ConnectionError(H2Error.ProtocolError, `RST_STREAM on idle stream ${id}`);
    const stream = this.#streams.get(id);
    if (stream === undefined) {
      this.#spend(FloodKind.EmptyFrames, 'RST_STREAM on closed streams');
      return;
    }
    if (!stream.responded) this.#spend(FloodKind.RapidReset, 'streams reset before their answer (rapid reset)');
    this.#closeStream(stream, 'reset-received', payload.readUInt32BE(0)); // any error code, known or not
  }

  #onSettings(flags: number, id: number, payload: Buffer): void {
    const settings = readPeerSettings(flags, id, payload);
    if (settings.kind === 'ack') return;
    this.#spend(FloodKind.Settings, 'SETTINGS flood');
    if (settings.initialWindowSize !== undefined) {
      const delta = settings.initialWindowSize - this.#peerWindow;
      this.#peerWindow = settings.initialWindowSize;
      for (const s of this.#streams.values()) {
        s.sendWindow += delta;
        if (s.sendWindow > MAX_WINDOW) throw new H2ConnectionError(H2Error.FlowControlError, 'a stream window overflowed');
      }
    }
    if (settings.maxFrameSize !== undefined) this.#peerMaxFrame = settings.maxFrameSize;
    this.#queue(encodeFrame(FrameType.Settings, FrameFlag.Ack, 0, Buffer.alloc(0)));
    this.#resumeAll();
  }

  #onWindowUpdate(id: number, payload: Buffer): void {
    if (payload.length !== 4) throw new H2ConnectionError(H2Error.FrameSizeError, 'WINDOW_UPDATE of the wrong size');
    const increment = payload.readUInt32BE(0) & 0x7fff_ffff;
    if (id === 0) {
      if (increment === 0) throw new H2ConnectionError(H2Error.ProtocolError, 'WINDOW_UPDATE of 0');
      this.#sendWindow += increment;
      if (this.#sendWindow > MAX_WINDOW) throw new H2ConnectionError(H2Error.FlowControlError, 'connection window overflowed');
      this.#resumeAll();
      return;
    }
    if (id > this.#history.lastOpened) throw new H2ConnectionError(H2Error.ProtocolError, `WINDOW_UPDATE on idle stream ${id}`);
    const stream = this.#streams.get(id);
    if (stream === undefined) return; // closed: updates sent before the client saw the end (§5.1)
    if (increment === 0) return this.#streamError(id, H2Error.ProtocolError);
    stream.sendWindow += increment;
    if (stream.sendWindow > MAX_WINDOW) return this.#streamError(id, H2Error.FlowControlError);
    if (stream.pending.length > 0) this.#resume(stream);
  }

  // ---- stream errors and faults ----

  #spend(kind: FloodKind, what: string): void {
    if (!this.#floods.spend(kind, this.#now())) throw new H2ConnectionError(H2Error.EnhanceYourCalm, `${what}: bound passed`);
  }

  /** A stream error (RFC 9113 §5.4.2) for the client's fault: RST_STREAM `code`; the layer above sees `onReset`. */
  #streamError(id: number, code: number): void {
    this.#spend(FloodKind.StreamErrors, 'stream errors (reset flood)');
    this.#queue(rstStreamFrame(id, code));
    const stream = this.#streams.get(id);
    if (stream !== undefined) this.#closeStream(stream, 'reset-sent', code);
    else this.#history.closed(id, 'reset-sent');
  }

  /** Refuses a request with a headers-only answer (431, 501) before the layer above sees it. */
  #answerOnly(id: number, status: number, requestEnded: boolean): void {
    this.#spend(FloodKind.StreamErrors, 'refused requests');
    this.#queueHeaders(id, statusOnlyBlock(status), true);
    // The rest of the request is not wanted (RFC 9113 §8.1).
    if (!requestEnded) this.#queue(rstStreamFrame(id, H2Error.NoError));
    this.#history.closed(id, requestEnded ? 'ended' : 'reset-sent');
  }

  /** Runs a callback of the layer above for `stream`: a throw is the stream's fault, not ours. */
  #guard(stream: H2Stream, call: () => void): void {
    try {
      call();
    } catch (err) {
      this.#fault(stream, err);
    }
  }

  /** Reports `err` once per stream; resets the stream (INTERNAL_ERROR) if it is still open. */
  #fault(stream: H2Stream, err: unknown): void {
    if (!this.#faulted.has(stream)) {
      this.#faulted.add(stream);
      this.onStreamFault?.(err, { streamId: stream.id, method: stream.header(':method'), path: stream.header(':path') });
    }
    if (stream.closed) return;
    this.#queue(rstStreamFrame(stream.id, H2Error.InternalError));
    this.#closeStream(stream, 'reset-sent', H2Error.InternalError);
  }

  // ---- writing ----

  #queue(bytes: Buffer): void {
    if (!this.#closed) this.#out.queue(bytes);
  }

  #queueHeaders(id: number, block: Buffer, endStream: boolean): void {
    const max = this.#peerMaxFrame;
    const end = endStream ? FrameFlag.EndStream : 0;
    if (block.length <= max) {
      this.#queue(encodeFrame(FrameType.Headers, end | FrameFlag.EndHeaders, id, block));
      return;
    }
    this.#queue(encodeFrame(FrameType.Headers, end, id, block.subarray(0, max)));
    for (let at = max; at < block.length; at += max) {
      const last = at + max >= block.length;
      this.#queue(encodeFrame(FrameType.Continuation, last ? FrameFlag.EndHeaders : 0, id, block.subarray(at, at + max)));
    }
  }

  /** Sends as much of `data` as the windows allow now; returns what is left. */
  #sendNow(stream: H2Stream, data: Buffer): Buffer {
    let at = 0;
    while (at < data.length) {
      const room = Math.min(this.#sendWindow, stream.sendWindow, this.#peerMaxFrame, data.length - at);
      if (room <= 0) break;
      // The payload is queued as it is (no copy): only the 9-byte header is new.
      this.#queue(frameHeader(FrameType.Data, 0, stream.id, room));
      this.#queue(data.subarray(at, at + room));
      this.#sendWindow -= room;
      stream.sendWindow -= room;
      at += room;
    }
    return at === 0 ? data : data.subarray(at);
  }

  #resume(stream: H2Stream): void {
    while (stream.pending.length > 0 && !stream.closed) {
      const head = stream.pending[0]!;
      const left = this.#sendNow(stream, head);
      stream.pendingBytes -= head.length - left.length;
      if (left.length > 0) {
        stream.pending[0] = left;
        this.#waiting.add(stream);
        return;
      }
      stream.pending.shift();
    }
    this.#waiting.delete(stream);
    if (stream.closed) return;
    if (stream.trailers !== undefined) {
      const block = stream.trailers;
      stream.trailers = undefined;
      this.#queueHeaders(stream.id, block, true);
      this.#finishLocal(stream);
      return;
    }
    const drained = stream.onDrain;
    if (drained !== undefined) this.#guard(stream, drained);
  }

  /** After the connection window or every stream's grew: the waiting streams, in order, while there is room. */
  #resumeAll(): void {
    for (const s of [...this.#waiting]) {
      if (this.#sendWindow <= 0) return;
      if (s.sendWindow > 0) this.#resume(s);
    }
  }

  #grantConnection(bytes: number): void {
    this.#recvUngranted += bytes;
    if (this.#recvUngranted >= this.#connectionWindow / 2) {
      this.#recvGranting += this.#recvUngranted;
      this.#queue(windowUpdateFrame(0, this.#recvUngranted));
      this.#recvUngranted = 0;
    }
  }

  // ---- stream ends ----

  #remoteEnd(stream: H2Stream): void {
    this.#guard(stream, () => stream.receiveEnd());
    if (!stream.closed && stream.localEnded && stream.pending.length === 0) this.#closeStream(stream, 'ended', undefined);
  }

  #finishLocal(stream: H2Stream): void {
    stream.localEnded = true;
    if (stream.remoteEnded || stream === this.#openingEnded) this.#closeStream(stream, 'ended', undefined);
    else if (!stream.closed) {
      // An answer that ends before the request: the rest of the request is not wanted (RFC 9113 §8.1).
      this.#queue(rstStreamFrame(stream.id, H2Error.NoError));
      this.#closeStream(stream, 'reset-sent', undefined);
    }
  }

  /**
   * Forgets `stream` (remembered as closed `how`); `resetCode` set: the client or the connection
   * ended it, and its `onReset` is called (once: a stream closes once).
   */
  #closeStream(stream: H2Stream, how: ClosedHow, resetCode: number | undefined): void {
    if (stream.closed) return;
    stream.closed = true;
    stream.localEnded = true;
    stream.pending.length = 0;
    stream.pendingBytes = 0;
    this.#waiting.delete(stream);
    this.#streams.delete(stream.id);
    this.#history.closed(stream.id, how);
    const onReset = stream.onReset;
    if (resetCode !== undefined && onReset !== undefined) this.#guard(stream, () => onReset(resetCode));
    this.#endIfIdle();
  }

  #endIfIdle(): void {
    if (!this.#goingAway || this.#streams.size > 0 || this.#closed) return;
    this.#out.flush();
    this.#closed = true;
    this.#socket.end();
  }

  #fail(err: H2ConnectionError): void {
    if (this.#closed) return;
    this.onError?.(err);
    const pending = this.#out.close();
    this.#closed = true;
    for (const s of [...this.#streams.values()]) this.#closeStream(s, 'reset-sent', H2Error.Cancel);
    if (this.#out.overflowing) {
      this.#socket.destroy();
      return;
    }
    pending.push(goAwayFrame(this.#history.lastOpened, err.code, err.message));
    this.#socket.write(Buffer.concat(pending));
    this.#socket.end();
  }

  #onSocketClose(): void {
    if (!this.#closed) {
      this.#closed = true;
      for (const s of [...this.#streams.values()]) this.#closeStream(s, 'reset-sent', H2Error.Cancel);
    }
    const done = this.onClose;
    this.onClose = undefined;
    done?.();
  }
}

/** A header list's size as SETTINGS_MAX_HEADER_LIST_SIZE counts it (RFC 9113 §6.5.2). */
function listBytes(fields: readonly HeaderField[]): number {
  let bytes = 0;
  for (const f of fields) bytes += f.name.length + f.value.length + 32;
  return bytes;
}
