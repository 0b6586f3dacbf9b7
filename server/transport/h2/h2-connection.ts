/**
 * The server side of one HTTP/2 connection (RFC 9113), framed in JavaScript on the socket:
 * what lets a call be answered with plain objects only (server/README.md, "What our own HTTP/2
 * framing would save": Node's per-stream objects are freed only by mark-compacts).
 *
 * Scope: what gRPC clients use. The connection preface and SETTINGS (ours sent first; theirs
 * applied and acknowledged), PING answered, HEADERS + CONTINUATION decoded with one HPACK
 * context (`header-block-codec.ts`; our blocks are encoded by the caller, table-free), DATA
 * with both directions' flow control, RST_STREAM, WINDOW_UPDATE, PRIORITY ignored, GOAWAY.
 * Every frame queued during a turn leaves in one socket write (`setImmediate`).
 *
 * Contract:
 * - `onStream` is called once per request stream, when its header block is complete;
 * - a protocol violation is a connection error: GOAWAY with its code, every open stream reset
 *   (their `onReset`), the socket ended; a stream-level one resets that stream only;
 * - the client's windows bound what is queued for it: `H2Stream.write` returns false and
 *   `onDrain` follows once its data has gone out; received data is granted back at once unless
 *   the stream turns `autoGrant` off;
 * - `goAway()` refuses new streams and ends the socket once the open ones are done;
 *   `destroy()` drops everything at once. `onClose` is called once, when the socket is gone.
 */
import type { Duplex } from 'node:stream';
import { createHeaderBlockDecoder, type HeaderBlockDecoder } from '../header-block-codec.js';
import {
  DEFAULT_MAX_FRAME_SIZE,
  encodeFrame,
  FRAME_HEADER_LENGTH,
  FrameFlag,
  frameHeader,
  FrameType,
  goAwayFrame,
  H2Error,
  headerBlockFragment,
  rstStreamFrame,
  SettingId,
  settingsFrame,
  windowUpdateFrame,
} from '../http2-frames.js';
import { HTTP2_PREFACE } from '../protocol-sniff.js';
import { FrameOut } from './frame-out.js';
import { H2Stream, type StreamSink } from './h2-stream.js';

const DEFAULT_WINDOW = 65_535;
const MAX_WINDOW = 0x7fff_ffff;
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
  /** Largest request header block, decoded. Default 64 KiB. */
  readonly maxHeaderBytes?: number;
  /** Bytes the socket may hold unsent before the connection is dropped (ENHANCE_YOUR_CALM). Default 64 MiB. */
  readonly maxUnsentBytes?: number;
}

class ConnectionError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export class H2Connection implements StreamSink {
  readonly #socket: Duplex;
  readonly #decoder: HeaderBlockDecoder = createHeaderBlockDecoder();
  readonly #streams = new Map<number, H2Stream>();
  readonly #maxStreams: number;
  readonly #streamWindow: number;
  readonly #connectionWindow: number;
  readonly #maxHeaderBytes: number;
  readonly #out: FrameOut;
  #input: Buffer = Buffer.alloc(0);
  #prefaceSeen = false;
  /** The client's settings as they apply to what we send. */
  #peerWindow = DEFAULT_WINDOW;
  #peerMaxFrame = DEFAULT_MAX_FRAME_SIZE;
  /** Connection-level windows: what we may send, what the client may still send. */
  #sendWindow = DEFAULT_WINDOW;
  #recvWindow: number;
  #recvUngranted = 0;
  /** Streams with data waiting for a window (the connection's or their own), in the order they queued. */
  readonly #waiting = new Set<H2Stream>();
  #lastStreamId = 0;
  /** A header block being gathered over CONTINUATION frames. */
  #continuing: { id: number; flags: number; parts: Buffer[]; bytes: number } | undefined;
  #goingAway = false;
  #closed = false;
  onStream: (stream: H2Stream) => void = (s) => s.reset(H2Error.RefusedStream);
  onClose: (() => void) | undefined;
  /** A connection error, for the caller's log. */
  onError: ((err: Error) => void) | undefined;

  constructor(socket: Duplex, options: H2ConnectionOptions = {}) {
    this.#socket = socket;
    this.#maxStreams = options.maxConcurrentStreams ?? 1000;
    this.#streamWindow = options.streamWindow ?? 1 << 20;
    this.#connectionWindow = options.connectionWindow ?? 16 << 20;
    this.#maxHeaderBytes = options.maxHeaderBytes ?? 64 << 10;
    this.#out = new FrameOut(socket, options.maxUnsentBytes ?? MAX_UNSENT, (unsent) =>
      this.#fail(new ConnectionError(H2Error.EnhanceYourCalm, `client reads no answers (${unsent} bytes unsent)`)),
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
    this.#queue(goAwayFrame(this.#lastStreamId, H2Error.NoError));
    this.#endIfIdle();
  }

  /** Drops the connection and every stream on it. */
  destroy(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const s of this.#streams.values()) this.#closeStream(s, H2Error.Cancel);
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
    this.#closeStream(stream, undefined);
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
    let input = this.#input.length === 0 ? chunk : Buffer.concat([this.#input, chunk]);
    let at = 0;
    try {
      if (!this.#prefaceSeen) {
        if (input.length < HTTP2_PREFACE.length) {
          if (!HTTP2_PREFACE.subarray(0, input.length).equals(input)) throw new ConnectionError(H2Error.ProtocolError, 'not an HTTP/2 client preface');
          this.#input = input;
          return;
        }
        if (!input.subarray(0, HTTP2_PREFACE.length).equals(HTTP2_PREFACE)) throw new ConnectionError(H2Error.ProtocolError, 'not an HTTP/2 client preface');
        this.#prefaceSeen = true;
        at = HTTP2_PREFACE.length;
      }
      while (input.length - at >= FRAME_HEADER_LENGTH && !this.#closed) {
        const length = input.readUIntBE(at, 3);
        if (length > DEFAULT_MAX_FRAME_SIZE) throw new ConnectionError(H2Error.FrameSizeError, `frame of ${length} bytes over the ${DEFAULT_MAX_FRAME_SIZE} allowed`);
        if (input.length - at < FRAME_HEADER_LENGTH + length) break;
        const type = input[at + 3]!;
        const flags = input[at + 4]!;
        const id = input.readUInt32BE(at + 5) & 0x7fff_ffff;
        const payload = input.subarray(at + FRAME_HEADER_LENGTH, at + FRAME_HEADER_LENGTH + length);
        at += FRAME_HEADER_LENGTH + length;
        this.#onFrame(type, flags, id, payload);
      }
    } catch (e) {
      if (e instanceof ConnectionError) {
        this.#fail(e);
        return;
      }
      throw e;
    }
    if (at >= input.length) input = Buffer.alloc(0);
    else if (at > 0) input = Buffer.from(input.subarray(at));
    this.#input = input;
  }

  #onFrame(type: number, flags: number, id: number, payload: Buffer): void {
    if (this.#continuing !== undefined && (type !== FrameType.Continuation || id !== this.#continuing.id)) {
      throw new ConnectionError(H2Error.ProtocolError, 'a header block was interrupted');
    }
    switch (type) {
      case FrameType.Data:
        return this.#onDataFrame(flags, id, payload);
      case FrameType.Headers:
        return this.#onHeaders(flags, id, payload);
      case FrameType.Continuation:
        return this.#onContinuation(flags, payload);
      case FrameType.Priority:
        if (id === 0) throw new ConnectionError(H2Error.ProtocolError, 'PRIORITY on stream 0');
        if (payload.length !== 5) throw new ConnectionError(H2Error.FrameSizeError, 'PRIORITY of the wrong size');
        return;
      case FrameType.RstStream:
        return this.#onReset(id, payload);
      case FrameType.Settings:
        return this.#onSettings(flags, id, payload);
      case FrameType.PushPromise:
        throw new ConnectionError(H2Error.ProtocolError, 'PUSH_PROMISE from a client');
      case FrameType.Ping:
        if (id !== 0) throw new ConnectionError(H2Error.ProtocolError, 'PING on a stream');
        if (payload.length !== 8) throw new ConnectionError(H2Error.FrameSizeError, 'PING of the wrong size');
        if ((flags & FrameFlag.Ack) === 0) this.#queue(encodeFrame(FrameType.Ping, FrameFlag.Ack, 0, payload));
        return;
      case FrameType.GoAway:
        if (id !== 0) throw new ConnectionError(H2Error.ProtocolError, 'GOAWAY on a stream');
        this.#goingAway = true;
        this.#endIfIdle();
        return;
      case FrameType.WindowUpdate:
        return this.#onWindowUpdate(id, payload);
      default:
        return; // unknown frame types are ignored (RFC 9113 §4.1)
    }
  }

  #onDataFrame(flags: number, id: number, payload: Buffer): void {
    if (id === 0) throw new ConnectionError(H2Error.ProtocolError, 'DATA on stream 0');
    this.#recvWindow -= payload.length;
    if (this.#recvWindow < 0) throw new ConnectionError(H2Error.FlowControlError, 'DATA beyond the connection window');
    this.#grantConnection(payload.length);
    let data = payload;
    if (flags & FrameFlag.Padded) {
      if (payload.length < 1 || payload[0]! >= payload.length) throw new ConnectionError(H2Error.ProtocolError, 'DATA padding longer than the frame');
      data = payload.subarray(1, payload.length - payload[0]!);
    }
    const stream = this.#streams.get(id);
    if (stream === undefined || stream.remoteEnded) {
      if (id > this.#lastStreamId) throw new ConnectionError(H2Error.ProtocolError, `DATA on idle stream ${id}`);
      if (stream !== undefined) this.sendReset(stream, H2Error.StreamClosed);
      return; // a stream we have closed or reset: dropped (its window was granted back above)
    }
    stream.recvWindow -= payload.length;
    if (stream.recvWindow < 0) {
      this.sendReset(stream, H2Error.FlowControlError);
      return;
    }
    if (data.length > 0) stream.receive(data);
    if ((flags & FrameFlag.EndStream) === 0 && payload.length > 0) {
      // Padding counts against the window but reaches no consumer: granted back here.
      const granted = stream.autoGrant ? payload.length : payload.length - data.length;
      if (granted > 0) this.consumed(stream, granted);
    }
    if (flags & FrameFlag.EndStream) this.#remoteEnd(stream);
  }

  #onHeaders(flags: number, id: number, payload: Buffer): void {
    if (id === 0 || (id & 1) === 0) throw new ConnectionError(H2Error.ProtocolError, `HEADERS on stream ${id}`);
    const fragment = headerBlockFragment(FrameType.Headers, flags, payload);
    if (fragment.kind === 'malformed') throw new ConnectionError(H2Error.ProtocolError, fragment.reason);
    if (flags & FrameFlag.EndHeaders) this.#onHeaderBlock(id, flags, fragment.fragment);
    else this.#continuing = { id, flags, parts: [Buffer.from(fragment.fragment)], bytes: fragment.fragment.length };
  }

  #onContinuation(flags: number, payload: Buffer): void {
    const c = this.#continuing;
    if (c === undefined) throw new ConnectionError(H2Error.ProtocolError, 'CONTINUATION without a header block');
    c.parts.push(Buffer.from(payload));
    c.bytes += payload.length;
    if (c.bytes > 4 * this.#maxHeaderBytes) throw new ConnectionError(H2Error.ProtocolError, 'header block too large');
    if ((flags & FrameFlag.EndHeaders) === 0) return;
    this.#continuing = undefined;
    this.#onHeaderBlock(c.id, c.flags, Buffer.concat(c.parts));
  }

  #onHeaderBlock(id: number, flags: number, block: Buffer): void {
    // The block is decoded even for a stream refused below: the HPACK context must follow every block.
    const decoded = this.#decoder.decode(block);
    if (decoded.kind === 'malformed') throw new ConnectionError(H2Error.CompressionError, decoded.reason);
    const existing = this.#streams.get(id);
    if (existing !== undefined) {
      // Trailers from the client: they end the request.
      if (existing.remoteEnded || (flags & FrameFlag.EndStream) === 0) throw new ConnectionError(H2Error.ProtocolError, `second header block on stream ${id}`);
      this.#remoteEnd(existing);
      return;
    }
    if (id <= this.#lastStreamId) throw new ConnectionError(H2Error.StreamClosed, `HEADERS on closed stream ${id}`);
    this.#lastStreamId = id;
    let bytes = 0;
    for (const f of decoded.fields) bytes += f.name.length + f.value.length + 32;
    if (this.#goingAway || this.#streams.size >= this.#maxStreams || bytes > this.#maxHeaderBytes) {
      this.#queue(rstStreamFrame(id, H2Error.RefusedStream));
      return;
    }
    const stream = new H2Stream(id, decoded.fields, this, this.#streamWindow, this.#peerWindow);
    this.#streams.set(id, stream);
    this.onStream(stream);
    if (flags & FrameFlag.EndStream) this.#remoteEnd(stream);
  }

  #onReset(id: number, payload: Buffer): void {
    if (id === 0) throw new ConnectionError(H2Error.ProtocolError, 'RST_STREAM on stream 0');
    if (payload.length !== 4) throw new ConnectionError(H2Error.FrameSizeError, 'RST_STREAM of the wrong size');
    if (id > this.#lastStreamId) throw new ConnectionError(H2Error.ProtocolError, `RST_STREAM on idle stream ${id}`);
    const stream = this.#streams.get(id);
    if (stream !== undefined) this.#closeStream(stream, payload.readUInt32BE(0));
  }

  #onSettings(flags: number, id: number, payload: Buffer): void {
    if (id !== 0) throw new ConnectionError(H2Error.ProtocolError, 'SETTINGS on a stream');
    if (flags & FrameFlag.Ack) {
      if (payload.length !== 0) throw new ConnectionError(H2Error.FrameSizeError, 'SETTINGS ACK with a payload');
      return;
    }
    if (payload.length % 6 !== 0) throw new ConnectionError(H2Error.FrameSizeError, 'SETTINGS of the wrong size');
    for (let at = 0; at < payload.length; at += 6) {
      const key = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (key === SettingId.InitialWindowSize) {
        if (value > MAX_WINDOW) throw new ConnectionError(H2Error.FlowControlError, 'SETTINGS_INITIAL_WINDOW_SIZE too large');
        const delta = value - this.#peerWindow;
        this.#peerWindow = value;
        for (const s of this.#streams.values()) {
          s.sendWindow += delta;
          if (s.sendWindow > MAX_WINDOW) throw new ConnectionError(H2Error.FlowControlError, 'a stream window overflowed');
        }
      } else if (key === SettingId.MaxFrameSize) {
        if (value < DEFAULT_MAX_FRAME_SIZE || value > 0xff_ffff) throw new ConnectionError(H2Error.ProtocolError, 'SETTINGS_MAX_FRAME_SIZE out of range');
        this.#peerMaxFrame = value;
      } else if (key === SettingId.EnablePush && value > 1) {
        throw new ConnectionError(H2Error.ProtocolError, 'SETTINGS_ENABLE_PUSH not 0 or 1');
      }
      // HEADER_TABLE_SIZE: our blocks never use the client's table; others do not bind a server.
    }
    this.#queue(encodeFrame(FrameType.Settings, FrameFlag.Ack, 0, Buffer.alloc(0)));
    this.#resumeAll();
  }

  #onWindowUpdate(id: number, payload: Buffer): void {
    if (payload.length !== 4) throw new ConnectionError(H2Error.FrameSizeError, 'WINDOW_UPDATE of the wrong size');
    const increment = payload.readUInt32BE(0) & 0x7fff_ffff;
    if (id === 0) {
      if (increment === 0) throw new ConnectionError(H2Error.ProtocolError, 'WINDOW_UPDATE of 0');
      this.#sendWindow += increment;
      if (this.#sendWindow > MAX_WINDOW) throw new ConnectionError(H2Error.FlowControlError, 'connection window overflowed');
      this.#resumeAll();
      return;
    }
    const stream = this.#streams.get(id);
    if (stream === undefined) return;
    if (increment === 0) {
      this.sendReset(stream, H2Error.ProtocolError);
      return;
    }
    stream.sendWindow += increment;
    if (stream.sendWindow > MAX_WINDOW) {
      this.sendReset(stream, H2Error.FlowControlError);
      return;
    }
    if (stream.pending.length > 0) this.#resume(stream);
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
    stream.onDrain?.();
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
      this.#recvWindow += this.#recvUngranted;
      this.#queue(windowUpdateFrame(0, this.#recvUngranted));
      this.#recvUngranted = 0;
    }
  }

  // ---- stream ends ----

  #remoteEnd(stream: H2Stream): void {
    stream.receiveEnd();
    if (stream.localEnded && stream.pending.length === 0) this.#closeStream(stream, undefined);
  }

  #finishLocal(stream: H2Stream): void {
    stream.localEnded = true;
    if (stream.remoteEnded) this.#closeStream(stream, undefined);
    else if (!stream.closed) {
      // An answer that ends before the request: the rest of the request is not wanted (RFC 9113 §8.1).
      this.#queue(rstStreamFrame(stream.id, H2Error.NoError));
      this.#closeStream(stream, undefined);
    }
  }

  /** Forgets `stream`; `resetCode` set: the client or the connection ended it (its `onReset`). */
  #closeStream(stream: H2Stream, resetCode: number | undefined): void {
    if (stream.closed) return;
    stream.closed = true;
    stream.localEnded = true;
    stream.pending.length = 0;
    stream.pendingBytes = 0;
    this.#waiting.delete(stream);
    this.#streams.delete(stream.id);
    if (resetCode !== undefined) stream.onReset?.(resetCode);
    this.#endIfIdle();
  }

  #endIfIdle(): void {
    if (!this.#goingAway || this.#streams.size > 0 || this.#closed) return;
    this.#out.flush();
    this.#closed = true;
    this.#socket.end();
  }

  #fail(err: ConnectionError): void {
    if (this.#closed) return;
    this.onError?.(err);
    const pending = this.#out.close();
    this.#closed = true;
    for (const s of [...this.#streams.values()]) this.#closeStream(s, H2Error.Cancel);
    if (this.#out.overflowing) {
      this.#socket.destroy();
      return;
    }
    pending.push(goAwayFrame(this.#lastStreamId, err.code, err.message));
    this.#socket.write(Buffer.concat(pending));
    this.#socket.end();
  }

  #onSocketClose(): void {
    if (!this.#closed) {
      this.#closed = true;
      for (const s of [...this.#streams.values()]) this.#closeStream(s, H2Error.Cancel);
    }
    const done = this.onClose;
    this.onClose = undefined;
    done?.();
  }
}
