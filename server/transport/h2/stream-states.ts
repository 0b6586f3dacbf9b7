/**
 * The streams of one `H2Connection` from open to closed (RFC 9113 §5.1): the open ones by id,
 * the ids no longer open (stream-history.ts), and every change of state — opened and handed to
 * the layer above, half-closed by either side, closed by both ends, by a reset of either side
 * or by a stream error — with the layer above's callbacks run under a guard.
 *
 * Contract:
 * - `open` hands the stream to `owner.onStream`; `onStream` has returned before any other
 *   callback of the stream runs; a request that ended with its HEADERS and is answered within
 *   `onStream` closes as ended on both sides, not with a RST_STREAM declining the rest;
 * - an answer that ends before the request (`finishLocal`) declines the rest with RST_STREAM
 *   NO_ERROR (§8.1); both ends ended (and nothing left to send): closed as ended;
 * - a stream closes once: `close` forgets it, drops what it had waiting to be sent, remembers
 *   how it closed, calls its `onReset` when given a code (the client or the connection ended
 *   it), then tells `owner.streamClosed` (the connection may end after a GOAWAY);
 * - a throw from a callback of the layer above is the stream's fault: reported once per stream
 *   (`owner.onStreamFault`), the stream reset (INTERNAL_ERROR) if still open; it never reaches
 *   the caller;
 * - `error` is a stream error for the client's fault (§5.4.2): it spends a token of the
 *   stream-error flood bound (`owner.spend` throws past it), sends RST_STREAM with the code.
 */
import type { HeaderField } from '../header-block-codec.js';
import { H2Error, rstStreamFrame } from '../http2-frames.js';
import { FloodKind } from './flood-guard.js';
import { H2Stream, type StreamSink } from './h2-stream.js';
import type { ReceiveWindows } from './receive-windows.js';
import type { SendQueue } from './send-queue.js';
import { StreamHistory, type ClosedHow } from './stream-history.js';

/** What `onStreamFault` is told of the stream whose callback threw. */
export interface StreamFaultInfo {
  readonly streamId: number;
  readonly method?: string;
  readonly path?: string;
}

/** What the streams ask of their connection. */
export interface StreamOwner {
  /** The connection, as the streams' way out. */
  readonly sink: StreamSink;
  /** Queues frame bytes for the socket (ignored once the connection is closed). */
  queue(bytes: Buffer): void;
  /** Spends one token of a flood bound; throws past it. */
  spend(kind: FloodKind, what: string): void;
  /** The layer above takes a new stream (`H2Connection.onStream`). */
  onStream(stream: H2Stream): void;
  /** A callback of the layer above threw (`H2Connection.onStreamFault`). */
  onStreamFault(err: unknown, info: StreamFaultInfo): void;
  /** A stream closed. */
  streamClosed(): void;
}

export class StreamStates {
  /** Stream ids opened, skipped and closed. */
  readonly history: StreamHistory;
  readonly #open = new Map<number, H2Stream>();
  readonly #owner: StreamOwner;
  readonly #send: SendQueue;
  readonly #recv: ReceiveWindows;
  /** Streams whose fault was reported (reported once). */
  readonly #faulted = new WeakSet<H2Stream>();
  /** The stream being opened by a HEADERS frame with END_STREAM, while `onStream` runs. */
  #openingEnded: H2Stream | undefined;

  constructor(owner: StreamOwner, send: SendQueue, recv: ReceiveWindows, closedStreamMemory: number) {
    this.#owner = owner;
    this.#send = send;
    this.#recv = recv;
    this.history = new StreamHistory(closedStreamMemory);
  }

  /** Open streams. */
  get size(): number {
    return this.#open.size;
  }

  /** The open stream `id`, if any. */
  get(id: number): H2Stream | undefined {
    return this.#open.get(id);
  }

  /** Open streams (live: read it before closing any). */
  values(): IterableIterator<H2Stream> {
    return this.#open.values();
  }

  /** A well-formed request opens stream `id`: handed to the layer above, then ended if `endStream`. */
  open(id: number, fields: readonly HeaderField[], contentLength: number | undefined, endStream: boolean): void {
    const stream = new H2Stream(id, fields, this.#owner.sink, this.#recv.streamWindow, this.#send.initialStreamWindow);
    stream.expectedLength = contentLength;
    this.#open.set(id, stream);
    // An answer given within onStream to a request that ended with its HEADERS closes the stream
    // as ended on both sides (finishLocal), not with a RST_STREAM declining the rest.
    this.#openingEnded = endStream ? stream : undefined;
    this.guard(stream, () => this.#owner.onStream(stream));
    this.#openingEnded = undefined;
    if (endStream && !stream.closed) this.remoteEnd(stream);
  }

  /** Hands received DATA to the stream's consumer (guarded without a closure: once per DATA frame). */
  receive(stream: H2Stream, data: Buffer): void {
    try {
      stream.receive(data);
    } catch (err) {
      this.#fault(stream, err);
    }
  }

  /** The client's END_STREAM; closes the stream if our side has ended too. */
  remoteEnd(stream: H2Stream): void {
    this.guard(stream, () => stream.receiveEnd());
    if (!stream.closed && stream.localEnded && stream.pending.length === 0) this.close(stream, 'ended', undefined);
  }

  /** Our END_STREAM went out. */
  finishLocal(stream: H2Stream): void {
    stream.localEnded = true;
    if (stream.remoteEnded || stream === this.#openingEnded) this.close(stream, 'ended', undefined);
    else if (!stream.closed) {
      // An answer that ends before the request: the rest of the request is not wanted (RFC 9113 §8.1).
      this.#owner.queue(rstStreamFrame(stream.id, H2Error.NoError));
      this.close(stream, 'reset-sent', undefined);
    }
  }

  /**
   * Forgets `stream` (remembered as closed `how`); `resetCode` set: the client or the connection
   * ended it, and its `onReset` is called (once: a stream closes once).
   */
  close(stream: H2Stream, how: ClosedHow, resetCode: number | undefined): void {
    if (stream.closed) return;
    stream.closed = true;
    stream.localEnded = true;
    this.#send.drop(stream);
    this.#open.delete(stream.id);
    this.history.closed(stream.id, how);
    const onReset = stream.onReset;
    if (resetCode !== undefined && onReset !== undefined) this.guard(stream, () => onReset(resetCode));
    this.#owner.streamClosed();
  }

  /** Closes every open stream as reset by us with `code` (the connection is going). */
  closeAll(code: number): void {
    for (const s of [...this.#open.values()]) this.close(s, 'reset-sent', code);
  }

  /** A stream error (RFC 9113 §5.4.2) for the client's fault: RST_STREAM `code`; the layer above sees `onReset`. */
  error(id: number, code: number): void {
    this.#owner.spend(FloodKind.StreamErrors, 'stream errors (reset flood)');
    this.#owner.queue(rstStreamFrame(id, code));
    const stream = this.#open.get(id);
    if (stream !== undefined) this.close(stream, 'reset-sent', code);
    else this.history.closed(id, 'reset-sent');
  }

  /** Runs a callback of the layer above for `stream`: a throw is the stream's fault, not ours. */
  guard(stream: H2Stream, call: () => void): void {
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
      this.#owner.onStreamFault(err, { streamId: stream.id, method: stream.header(':method'), path: stream.header(':path') });
    }
    if (stream.closed) return;
    this.#owner.queue(rstStreamFrame(stream.id, H2Error.InternalError));
    this.close(stream, 'reset-sent', H2Error.InternalError);
  }
}
