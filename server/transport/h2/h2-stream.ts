/**
 * One request stream of an `H2Connection` as the code answering it sees it (server side only:
 * streams are opened by the client, never pushed).
 *
 * The connection calls `onData` / `onEnd` / `onReset` (set them when the stream is handed over;
 * data that arrives before are kept and given on set). The answer is `respond` (a header block,
 * encoded by the caller: replies are mostly the same few blocks, encoded once), any number of
 * `write`s, then `end` with the trailer block (or `respond(block, true)` for a headers-only
 * answer). `write` returns false once data waits for the client's flow-control window;
 * `onDrain` is called when it has all gone out. After `reset` or the client's RST_STREAM
 * every call is ignored and `closed` is true. Received data is granted back to the client at
 * once unless `autoGrant` is turned off (then `consumed` grants it).
 *
 * Order of the callbacks (an `H2Connection`'s promise): `onStream` has returned before any
 * `onData` / `onEnd` / `onReset` / `onDrain` of the stream is called, also when the client's
 * RST_STREAM came in the same packet as its HEADERS; `onReset` is called at most once, and
 * nothing after it. A callback that throws is the stream's fault: the connection resets it
 * (INTERNAL_ERROR) and reports it once (`H2Connection.onStreamFault`).
 *
 * The stream never touches the socket: it hands frames to its connection (`StreamSink`), which
 * owns framing, flow-control windows and the single write per turn.
 */
import type { HeaderField } from '../header-block-codec.js';

/** What a stream needs from its connection. */
export interface StreamSink {
  sendHeaders(stream: H2Stream, block: Buffer, endStream: boolean): void;
  /** Queues `data` for the stream under flow control; returns the bytes still waiting for window. */
  sendData(stream: H2Stream, data: Buffer): number;
  /** Sends the trailer block (END_STREAM) once every queued byte has gone. */
  sendTrailers(stream: H2Stream, block: Buffer): void;
  sendReset(stream: H2Stream, code: number): void;
  /** The consumer took `bytes` of received data: the windows may be opened again. */
  consumed(stream: H2Stream, bytes: number): void;
}

export class H2Stream {
  /** Bytes the client may still send on this stream before a WINDOW_UPDATE (ours to grant). */
  recvWindow: number;
  /** Bytes we may still send on this stream (the client's window for it). */
  sendWindow: number;
  /** DATA waiting for the send window (the connection's or this stream's), in order. */
  readonly pending: Buffer[] = [];
  pendingBytes = 0;
  /** The trailer block to send once `pending` is empty. */
  trailers: Buffer | undefined;
  /**
   * Whether received data is granted back to the client as soon as it arrives (the default:
   * a request is read whole). A consumer that applies back-pressure sets it to false and
   * calls `consumed` as it takes the data.
   */
  autoGrant = true;
  /** Received bytes consumed but not granted back yet. */
  ungranted = 0;
  /** The client has sent END_STREAM. */
  remoteEnded = false;
  /** We have sent END_STREAM (or reset). */
  localEnded = false;
  closed = false;
  /** A response header block went out (the stream is "answered"). */
  responded = false;
  /** The request's `content-length`, when it announced one (checked against its DATA by the connection). */
  expectedLength: number | undefined;
  /** Request DATA bytes received so far, padding excluded. */
  receivedLength = 0;
  #onData: ((chunk: Buffer) => void) | undefined;
  #onEnd: (() => void) | undefined;
  #early: Buffer[] = [];
  #endedEarly = false;
  onReset: ((code: number) => void) | undefined;
  onDrain: (() => void) | undefined;

  constructor(
    readonly id: number,
    readonly headers: readonly HeaderField[],
    private readonly sink: StreamSink,
    recvWindow: number,
    sendWindow: number,
  ) {
    this.recvWindow = recvWindow;
    this.sendWindow = sendWindow;
  }

  /** The first value of request header `name` (lower case), if any. */
  header(name: string): string | undefined {
    for (const f of this.headers) if (f.name === name) return f.value;
    return undefined;
  }

  set onData(f: ((chunk: Buffer) => void) | undefined) {
    this.#onData = f;
    if (f === undefined || this.#early.length === 0) return;
    const early = this.#early;
    this.#early = [];
    for (const chunk of early) f(chunk);
  }

  set onEnd(f: (() => void) | undefined) {
    this.#onEnd = f;
    if (f !== undefined && this.#endedEarly) {
      this.#endedEarly = false;
      f();
    }
  }

  /** Received DATA (called by the connection). */
  receive(chunk: Buffer): void {
    if (this.#onData === undefined) this.#early.push(chunk);
    else this.#onData(chunk);
  }

  /** The client's END_STREAM (called by the connection, after the last `receive`). */
  receiveEnd(): void {
    this.remoteEnded = true;
    if (this.#onEnd === undefined || this.#early.length > 0) this.#endedEarly = true;
    else this.#onEnd();
  }

  /** Sends the response header block; `endStream` for a headers-only answer. */
  respond(block: Buffer, endStream = false): void {
    if (this.localEnded) return;
    if (endStream) this.localEnded = true;
    this.responded = true;
    this.sink.sendHeaders(this, block, endStream);
  }

  /**
   * Sends `data`; false when some of it waits for the client's window (`onDrain` follows).
   * The connection keeps `data` itself until it is written: the caller must not change it.
   */
  write(data: Buffer): boolean {
    if (this.localEnded) return false;
    return this.sink.sendData(this, data) === 0;
  }

  /** Ends the answer with `trailers` (a header block), after every byte written. */
  end(trailers: Buffer): void {
    if (this.localEnded) return;
    this.localEnded = true;
    this.responded = true;
    this.sink.sendTrailers(this, trailers);
  }

  /** Abandons the stream with RST_STREAM `code` (CANCEL = 8 by default). */
  reset(code = 8): void {
    if (this.closed) return;
    this.localEnded = true;
    this.sink.sendReset(this, code);
  }

  /** The consumer is done with `bytes` of received data (flow control). */
  consumed(bytes: number): void {
    if (!this.closed) this.sink.consumed(this, bytes);
  }
}
