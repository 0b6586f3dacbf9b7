/**
 * The receive side of an `H2Connection`'s flow control (RFC 9113 §5.2, §6.9): our windows,
 * the client's DATA counted against them, and the grants (WINDOW_UPDATE) that open them again.
 *
 * It owns the connection-level receive window and what is not granted back yet; a stream's own
 * receive window and its ungranted bytes are fields of the `H2Stream`, kept here.
 *
 * Contract:
 * - constructed right after our SETTINGS are queued: when `connectionWindow` is larger than the
 *   initial 65 535 bytes, it queues the WINDOW_UPDATE that opens the connection window to it;
 * - `connectionData` counts a DATA frame (padding included) against the connection window —
 *   beyond it, `H2ConnectionError` FLOW_CONTROL_ERROR — and grants the connection window back
 *   in halves as DATA arrives; such a grant counts for the window only at `chunkRead` (the
 *   client cannot have seen it before the chunk being read was sent);
 * - `streamData` counts it against the stream's window: false beyond it (the caller's stream
 *   error FLOW_CONTROL_ERROR);
 * - `consumed` grants a stream's window back in halves of `streamWindow`, not per frame, and
 *   only while the client may still send on it (not closed, not half-closed remote).
 * Frames go through `queue` (dropped once the connection is closed).
 */
import { H2Error, windowUpdateFrame } from '../http2-frames.js';
import { H2ConnectionError } from './connection-error.js';
import type { H2Stream } from './h2-stream.js';
import { DEFAULT_WINDOW } from './send-queue.js';

export class ReceiveWindows {
  /** Our receive window per stream (advertised as SETTINGS_INITIAL_WINDOW_SIZE). */
  readonly streamWindow: number;
  readonly #connectionWindow: number;
  readonly #queue: (bytes: Buffer) => void;
  /** What the client may still send on the connection. */
  #window = DEFAULT_WINDOW;
  #ungranted = 0;
  /** Connection window granted during the chunk being read: the client cannot have seen it yet. */
  #granting = 0;

  constructor(streamWindow: number, connectionWindow: number, queue: (bytes: Buffer) => void) {
    this.streamWindow = streamWindow;
    this.#connectionWindow = connectionWindow;
    this.#queue = queue;
    if (connectionWindow > DEFAULT_WINDOW) {
      queue(windowUpdateFrame(0, connectionWindow - DEFAULT_WINDOW));
      this.#window = connectionWindow;
    }
  }

  /** A DATA frame of `bytes` (padding included) on the connection. */
  connectionData(bytes: number): void {
    this.#window -= bytes;
    if (this.#window < 0) throw new H2ConnectionError(H2Error.FlowControlError, 'DATA beyond the connection window');
    this.#ungranted += bytes;
    if (this.#ungranted >= this.#connectionWindow / 2) {
      this.#granting += this.#ungranted;
      this.#queue(windowUpdateFrame(0, this.#ungranted));
      this.#ungranted = 0;
    }
  }

  /** A DATA frame of `bytes` on an open stream; false when it went beyond the stream's window. */
  streamData(stream: H2Stream, bytes: number): boolean {
    stream.recvWindow -= bytes;
    return stream.recvWindow >= 0;
  }

  /** The chunk being read is done: the connection window granted while reading it counts now. */
  chunkRead(): void {
    this.#window += this.#granting;
    this.#granting = 0;
  }

  /** The consumer took `bytes` of the stream's data: granted back once half a window is taken. */
  consumed(stream: H2Stream, bytes: number): void {
    if (stream.closed || stream.remoteEnded || bytes <= 0) return;
    stream.ungranted += bytes;
    if (stream.ungranted < this.streamWindow / 2) return;
    stream.recvWindow += stream.ungranted;
    this.#queue(windowUpdateFrame(stream.id, stream.ungranted));
    stream.ungranted = 0;
  }
}
