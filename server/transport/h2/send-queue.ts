/**
 * The send side of an `H2Connection` (RFC 9113 §5.2, §6.9): what we send the client, under the
 * windows it gives us, at the frame size it accepts.
 *
 * It owns the client's settings as they bind us (its initial stream window, its
 * SETTINGS_MAX_FRAME_SIZE), the connection's send window, and the waiting streams: those with
 * DATA held back for a window (the connection's or their own), in the order they queued.
 * A stream's own send window and its queued DATA (`pending`, `pendingBytes`, `trailers`) are
 * fields of the `H2Stream`, kept here.
 *
 * Contract:
 * - `data` sends at once as much as both windows and the frame size allow; the rest waits on
 *   the stream, after anything already waiting (order is kept); the payload is queued as the
 *   caller's own bytes (no copy), each DATA frame adding only its 9-byte header;
 * - `trailers` go out (HEADERS with END_STREAM) only after every byte queued before them;
 * - when a window grows (`grow`, `connectionGrew`, `applySettings` then `resumeAll`), waiting
 *   streams are resumed in the order they queued, while the connection window lasts; a stream
 *   whose data has all gone out sends its trailers (and is finished by the host), or else is
 *   told `onDrain` (guarded by the host: a throw there is the stream's fault);
 * - header blocks are split over HEADERS + CONTINUATION at the client's frame size;
 * - a window pushed past 2^31−1: `applySettings` and `connectionGrew` throw `H2ConnectionError`
 *   FLOW_CONTROL_ERROR (a connection error); `grow` answers false (the caller's stream error).
 * Frames go through `host.queue` (dropped once the connection is closed).
 */
import { DEFAULT_MAX_FRAME_SIZE, encodeFrame, FrameFlag, frameHeader, FrameType, H2Error } from '../http2-frames.js';
import { H2ConnectionError } from './connection-error.js';
import type { H2Stream } from './h2-stream.js';
import { MAX_WINDOW } from './peer-settings.js';

/** The initial flow-control window (RFC 9113 §6.9.2): the connection's, and each stream's until SETTINGS say otherwise. */
export const DEFAULT_WINDOW = 65_535;

/** What the send side asks of its connection. */
export interface SendQueueHost {
  /** Queues frame bytes for the socket (ignored once the connection is closed). */
  queue(bytes: Buffer): void;
  /** The stream's END_STREAM went out (its trailers, after its pending data). */
  finishLocal(stream: H2Stream): void;
  /** Runs a callback of the layer above for `stream`: a throw is the stream's fault. */
  guard(stream: H2Stream, call: () => void): void;
}

export class SendQueue {
  readonly #host: SendQueueHost;
  /** The client's settings as they apply to what we send. */
  #peerWindow = DEFAULT_WINDOW;
  #peerMaxFrame = DEFAULT_MAX_FRAME_SIZE;
  /** The connection-level window: what we may still send on all streams together. */
  #window = DEFAULT_WINDOW;
  /** Streams with data waiting for a window (the connection's or their own), in the order they queued. */
  readonly #waiting = new Set<H2Stream>();

  constructor(host: SendQueueHost) {
    this.#host = host;
  }

  /** A new stream's send window: the client's SETTINGS_INITIAL_WINDOW_SIZE. */
  get initialStreamWindow(): number {
    return this.#peerWindow;
  }

  /** Queues a header block on stream `id`: HEADERS, then CONTINUATION frames past the client's frame size. */
  headers(id: number, block: Buffer, endStream: boolean): void {
    const max = this.#peerMaxFrame;
    const end = endStream ? FrameFlag.EndStream : 0;
    if (block.length <= max) {
      this.#host.queue(encodeFrame(FrameType.Headers, end | FrameFlag.EndHeaders, id, block));
      return;
    }
    this.#host.queue(encodeFrame(FrameType.Headers, end, id, block.subarray(0, max)));
    for (let at = max; at < block.length; at += max) {
      const last = at + max >= block.length;
      this.#host.queue(encodeFrame(FrameType.Continuation, last ? FrameFlag.EndHeaders : 0, id, block.subarray(at, at + max)));
    }
  }

  /** Sends `data` on an open stream, or queues it behind what waits; returns the stream's bytes still waiting. */
  data(stream: H2Stream, data: Buffer): number {
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

  /** Sends the trailer block of an open stream (END_STREAM) now, or once its pending data has gone. */
  trailers(stream: H2Stream, block: Buffer): void {
    if (stream.pending.length > 0) {
      stream.trailers = block;
      return;
    }
    this.headers(stream.id, block, true);
    this.#host.finishLocal(stream);
  }

  /** Forgets what a closing stream had waiting. */
  drop(stream: H2Stream): void {
    stream.pending.length = 0;
    stream.pendingBytes = 0;
    this.#waiting.delete(stream);
  }

  /** The client's SETTINGS: every open stream's window moves by the change of the initial one. */
  applySettings(initialWindowSize: number | undefined, maxFrameSize: number | undefined, open: Iterable<H2Stream>): void {
    if (initialWindowSize !== undefined) {
      const delta = initialWindowSize - this.#peerWindow;
      this.#peerWindow = initialWindowSize;
      for (const s of open) {
        s.sendWindow += delta;
        if (s.sendWindow > MAX_WINDOW) throw new H2ConnectionError(H2Error.FlowControlError, 'a stream window overflowed');
      }
    }
    if (maxFrameSize !== undefined) this.#peerMaxFrame = maxFrameSize;
  }

  /** A WINDOW_UPDATE on the connection (`increment` > 0): waiting streams resume. */
  connectionGrew(increment: number): void {
    this.#window += increment;
    if (this.#window > MAX_WINDOW) throw new H2ConnectionError(H2Error.FlowControlError, 'connection window overflowed');
    this.resumeAll();
  }

  /** A WINDOW_UPDATE on an open stream (`increment` > 0); false when its window passed 2^31−1. */
  grow(stream: H2Stream, increment: number): boolean {
    stream.sendWindow += increment;
    if (stream.sendWindow > MAX_WINDOW) return false;
    if (stream.pending.length > 0) this.#resume(stream);
    return true;
  }

  /** After the connection window or every stream's grew: the waiting streams, in order, while there is room. */
  resumeAll(): void {
    for (const s of [...this.#waiting]) {
      if (this.#window <= 0) return;
      if (s.sendWindow > 0) this.#resume(s);
    }
  }

  /** Sends as much of `data` as the windows allow now; returns what is left. */
  #sendNow(stream: H2Stream, data: Buffer): Buffer {
    let at = 0;
    while (at < data.length) {
      const room = Math.min(this.#window, stream.sendWindow, this.#peerMaxFrame, data.length - at);
      if (room <= 0) break;
      // The payload is queued as it is (no copy): only the 9-byte header is new.
      this.#host.queue(frameHeader(FrameType.Data, 0, stream.id, room));
      this.#host.queue(data.subarray(at, at + room));
      this.#window -= room;
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
      this.headers(stream.id, block, true);
      this.#host.finishLocal(stream);
      return;
    }
    const drained = stream.onDrain;
    if (drained !== undefined) this.#host.guard(stream, drained);
  }
}
