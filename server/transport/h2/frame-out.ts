/**
 * What an `H2Connection` sends, gathered per event-loop turn: frames are queued as buffers
 * (a DATA payload as the caller's own bytes, after its 9-byte header) and leave in one socket
 * write at the turn's end (`setImmediate`) — small turns copied into one buffer, big ones
 * written as a vector without a copy.
 *
 * Contract: `queue` after `close()` is ignored; `flush()` writes at once; after each write, if
 * the socket holds more than `maxUnsent` bytes unsent (a client that reads no answers: header
 * blocks are not flow-controlled), `onOverflow` is called once. `close()` hands back what was
 * still queued (for a last write) and stops the queue.
 */
import type { Duplex } from 'node:stream';

/** Up to this many queued bytes are copied into one buffer per write; beyond, written as a vector. */
const GATHER_BYTES = 64 * 1024;

export class FrameOut {
  #out: Buffer[] = [];
  #bytes = 0;
  #scheduled = false;
  #closed = false;

  constructor(
    private readonly socket: Duplex,
    private readonly maxUnsent: number,
    private readonly onOverflow: (unsent: number) => void,
  ) {}

  queue(bytes: Buffer): void {
    if (this.#closed) return;
    this.#out.push(bytes);
    this.#bytes += bytes.length;
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.#scheduled = false;
    if (this.#closed || this.#out.length === 0) return;
    const out = this.#out;
    const bytes = this.#bytes;
    this.#out = [];
    this.#bytes = 0;
    const socket = this.socket;
    if (out.length === 1) {
      socket.write(out[0]!);
    } else if (bytes <= GATHER_BYTES) {
      socket.write(Buffer.concat(out, bytes));
    } else {
      socket.cork();
      for (const b of out) socket.write(b);
      socket.uncork();
    }
    if (socket.writableLength > this.maxUnsent) this.onOverflow(socket.writableLength);
  }

  /** Whether the socket already holds more than the bound unsent. */
  get overflowing(): boolean {
    return this.socket.writableLength > this.maxUnsent;
  }

  /** Stops the queue; returns what was still queued. */
  close(): Buffer[] {
    this.#closed = true;
    const out = this.#out;
    this.#out = [];
    this.#bytes = 0;
    return out;
  }
}
