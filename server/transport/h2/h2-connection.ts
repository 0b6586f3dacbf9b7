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
 * This file is the connection's life: its socket, its read loop, its API and its end. The rest
 * is done by parts it owns, one role each: `frame-handlers.ts` (every frame read, by type) and
 * `request-frames.ts` (HEADERS, CONTINUATION and DATA of the requests), which reach the
 * connection through `connection-core.ts`; `stream-states.ts` (streams from open to closed, the
 * guard around the layer above); `send-queue.ts` (DATA under the client's windows, waiting
 * streams, trailers after pending data); `receive-windows.ts` (our windows and their grants);
 * `frame-out.ts` (one socket write per turn); `connection-options.ts` (limits and defaults).
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
import { createHeaderBlockDecoder } from '../header-block-codec.js';
import { DEFAULT_MAX_FRAME_SIZE, goAwayFrame, H2Error, rstStreamFrame, SettingId, settingsFrame } from '../http2-frames.js';
import type { ConnectionCore } from './connection-core.js';
import { resolveOptions, type H2ConnectionOptions } from './connection-options.js';
import { H2ConnectionError } from './connection-error.js';
import { FloodGuard, type FloodKind } from './flood-guard.js';
import { FrameHandlers } from './frame-handlers.js';
import { FrameOut } from './frame-out.js';
import { FrameReader, type OnFrame } from './frame-reader.js';
import type { H2Stream, StreamSink } from './h2-stream.js';
import { ReceiveWindows } from './receive-windows.js';
import { RequestFrames } from './request-frames.js';
import { SendQueue } from './send-queue.js';
import { StreamStates, type StreamFaultInfo, type StreamOwner } from './stream-states.js';

export type { H2ConnectionOptions } from './connection-options.js';
export type { StreamFaultInfo } from './stream-states.js';

export class H2Connection implements StreamSink {
  readonly #socket: Duplex;
  readonly #floods: FloodGuard;
  readonly #now: () => number;
  readonly #reader = new FrameReader(DEFAULT_MAX_FRAME_SIZE);
  readonly #out: FrameOut;
  readonly #send: SendQueue;
  readonly #recv: ReceiveWindows;
  readonly #streams: StreamStates;
  /** The reader's callbacks, made once: a frame to its handler; whether to read on. */
  readonly #onFrame: OnFrame;
  readonly #reading: () => boolean;
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
    const limits = resolveOptions(options);
    this.#now = limits.now;
    this.#floods = new FloodGuard(limits.floods, this.#now());
    this.#out = new FrameOut(socket, limits.maxUnsentBytes, (unsent) =>
      this.#fail(new H2ConnectionError(H2Error.EnhanceYourCalm, `client reads no answers (${unsent} bytes unsent)`)),
    );
    const queue = (bytes: Buffer): void => this.#queue(bytes);
    const spend = (kind: FloodKind, what: string): void => this.#spend(kind, what);
    this.#send = new SendQueue({
      queue,
      guard: (stream, call) => this.#streams.guard(stream, call),
      finishLocal: (stream) => this.#streams.finishLocal(stream),
    });
    queue(
      settingsFrame([
        [SettingId.MaxConcurrentStreams, limits.maxConcurrentStreams],
        [SettingId.InitialWindowSize, limits.streamWindow],
        [SettingId.MaxHeaderListSize, limits.maxHeaderBytes],
      ]),
    );
    // Queues the WINDOW_UPDATE opening the connection window, after our SETTINGS.
    this.#recv = new ReceiveWindows(limits.streamWindow, limits.connectionWindow, queue);
    const owner: StreamOwner = {
      sink: this,
      queue,
      spend,
      onStream: (stream: H2Stream) => this.onStream(stream),
      onStreamFault: (err: unknown, info: StreamFaultInfo) => this.onStreamFault?.(err, info),
      streamClosed: () => this.#endIfIdle(),
    };
    this.#streams = new StreamStates(owner, this.#send, this.#recv, limits.closedStreamMemory);
    const core: ConnectionCore = {
      streams: this.#streams,
      send: this.#send,
      recv: this.#recv,
      goingAway: () => this.#goingAway,
      queue,
      spend,
      peerGoingAway: () => {
        this.#goingAway = true;
        this.#endIfIdle();
      },
    };
    // We advertise no SETTINGS_HEADER_TABLE_SIZE: the client's table is the initial 4096 bytes. A list
    // over the limit is not collected past it (an HPACK bomb costs no memory) but still decoded whole.
    const decoder = createHeaderBlockDecoder({ maxTableSize: 4096, maxHeaderListBytes: limits.maxHeaderBytes });
    const frames = new FrameHandlers(core, new RequestFrames(core, decoder, limits));
    this.#onFrame = (type, flags, id, payload) => frames.frame(type, flags, id, payload);
    this.#reading = () => !this.#closed;
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
    this.#queue(goAwayFrame(this.#streams.history.lastOpened, H2Error.NoError));
    this.#endIfIdle();
  }

  /** Drops the connection and every stream on it. */
  destroy(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#streams.closeAll(H2Error.Cancel);
    this.#socket.destroy();
  }

  // ---- StreamSink: what streams ask of the connection ----

  sendHeaders(stream: H2Stream, block: Buffer, endStream: boolean): void {
    if (stream.closed) return;
    this.#send.headers(stream.id, block, endStream);
    if (endStream) this.#streams.finishLocal(stream);
  }

  sendData(stream: H2Stream, data: Buffer): number {
    if (stream.closed) return 0;
    return this.#send.data(stream, data);
  }

  sendTrailers(stream: H2Stream, block: Buffer): void {
    if (stream.closed) return;
    this.#send.trailers(stream, block);
  }

  sendReset(stream: H2Stream, code: number): void {
    if (stream.closed) return;
    this.#queue(rstStreamFrame(stream.id, code));
    this.#streams.close(stream, 'reset-sent', undefined);
  }

  consumed(stream: H2Stream, bytes: number): void {
    this.#recv.consumed(stream, bytes);
  }

  // ---- reading and writing ----

  #onData(chunk: Buffer): void {
    if (this.#closed) return;
    try {
      this.#reader.push(chunk, this.#onFrame, this.#reading);
      this.#recv.chunkRead();
    } catch (e) {
      // A fault of ours while reading is still only this connection's end.
      this.#fail(e instanceof H2ConnectionError ? e : new H2ConnectionError(H2Error.InternalError, `internal error while reading: ${String(e)}`, { cause: e }));
    }
  }

  #spend(kind: FloodKind, what: string): void {
    if (!this.#floods.spend(kind, this.#now())) throw new H2ConnectionError(H2Error.EnhanceYourCalm, `${what}: bound passed`);
  }

  #queue(bytes: Buffer): void {
    if (!this.#closed) this.#out.queue(bytes);
  }

  // ---- the connection's end ----

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
    this.#streams.closeAll(H2Error.Cancel);
    if (this.#out.overflowing) {
      this.#socket.destroy();
      return;
    }
    pending.push(goAwayFrame(this.#streams.history.lastOpened, err.code, err.message));
    this.#socket.write(Buffer.concat(pending));
    this.#socket.end();
  }

  #onSocketClose(): void {
    if (!this.#closed) {
      this.#closed = true;
      this.#streams.closeAll(H2Error.Cancel);
    }
    const done = this.onClose;
    this.onClose = undefined;
    done?.();
  }
}
