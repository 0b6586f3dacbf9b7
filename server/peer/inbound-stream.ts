/**
 * The receiving half of one member pair: an accepted, upgraded socket from `from`, decoded
 * into data frames for the user and pings answered with pongs.
 *
 * Contract: data frames are delivered in arrival order, one `deliver` call per received
 * chunk that completed at least one frame. After `close()` (the stream was superseded by a
 * newer one from the same sender, the sender was removed, or the transport closes) nothing
 * more is delivered, so frames from an old connection can never follow frames from a new one.
 * A socket silent for `idleTimeoutMs` (the dialer pings more often) is closed.
 */
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import { formatId } from '../config/identity.js';
import { encodeControl, FrameDecoder, FrameType } from './frame-codec.js';

export interface InboundContext {
  readonly maxFrameBytes: number;
  readonly idleTimeoutMs: number;
  readonly keepAliveMs: number;
  /** Bound with `local-member-id`. */
  readonly log: Logger;
  readonly receivedBytes: Counter.Internal;
  readonly receivedFailures: Counter.Internal;
  readonly deliver: (from: bigint, frames: Buffer[]) => void;
  readonly closed: (stream: InboundStream) => void;
}

export class InboundStream {
  readonly from: bigint;
  readonly #socket: Socket;
  #open = true;
  #framesReceived = 0;

  constructor(from: bigint, socket: Socket, head: Buffer, ctx: InboundContext) {
    this.from = from;
    this.#socket = socket;
    const fields = { 'stream-reader-type': 'stream Frames', 'remote-peer-id': formatId(from) };
    const decoder = new FrameDecoder(ctx.maxFrameBytes);
    let error: Error | undefined;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, ctx.keepAliveMs);
    socket.setTimeout(ctx.idleTimeoutMs, () => socket.destroy(new Error(`no frame from peer for ${ctx.idleTimeoutMs}ms`)));
    const onData = (chunk: Buffer): void => {
      if (!this.#open) return;
      ctx.receivedBytes.inc(chunk.length);
      const out = decoder.push(chunk);
      if (!out.ok) {
        ctx.receivedFailures.inc();
        socket.destroy(new Error(`protocol error: ${out.reason}`));
        return;
      }
      for (const c of out.control) if (c.type === FrameType.Ping) socket.write(encodeControl(FrameType.Pong, c.payload));
      if (out.data.length > 0) {
        this.#framesReceived += out.data.length;
        ctx.deliver(from, out.data);
      }
    };
    socket.on('data', onData);
    socket.on('end', () => socket.end());
    socket.on('error', (e) => {
      error ??= e;
    });
    socket.on('close', () => {
      if (this.#open) {
        this.#open = false;
        const reason = error?.message ?? 'connection closed by remote peer';
        if (error !== undefined) ctx.receivedFailures.inc();
        ctx.log.warn({ ...fields, error: reason }, 'lost TCP streaming connection with remote peer');
      }
      ctx.closed(this);
    });
    ctx.log.debug(fields, 'established TCP streaming connection with remote peer');
    if (head.length > 0) onData(head);
  }

  get framesReceived(): number {
    return this.#framesReceived;
  }

  /** Stops delivery now and closes the socket; resolves when it is closed. */
  close(): Promise<void> {
    this.#open = false;
    if (this.#socket.closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#socket.once('close', () => resolve());
      this.#socket.destroy();
    });
  }
}
