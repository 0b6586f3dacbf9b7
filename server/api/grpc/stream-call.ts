/**
 * One server-streaming or bidi call, with the bookkeeping every stream adapter needs.
 *
 * Contract:
 * - `write` queues one message; it returns false when the transport buffer is over its
 *   high-water mark (the message is still queued — nothing is dropped) and after the call
 *   has ended (the message is discarded: there is nobody to receive it);
 * - `end()` / `fail(status)` send the status after every queued message;
 * - the call ends exactly once — by end, fail, or the client going away (counted as
 *   Canceled) — and then runs the `onClose` callbacks once, in registration order;
 * - metrics: start on construction, one `handled` at the end, `sent` per write,
 *   `received` via `received()`.
 */
import type { ServerDuplexStream, ServerWritableStream } from '@grpc/grpc-js';
import { GrpcCode, type GrpcStatus } from './codes.js';
import type { MethodTally } from './metrics.js';

type ServerStream<Res> = ServerWritableStream<unknown, Res> | ServerDuplexStream<unknown, Res>;

export class StreamCall<Res> {
  private ended = false;
  private readonly closers: Array<() => void> = [];
  private readonly waiters: Array<() => void> = [];

  constructor(
    private readonly call: ServerStream<Res>,
    private readonly tally: MethodTally,
  ) {
    tally.started += 1;
    call.on('cancelled', () => this.finish(GrpcCode.Canceled));
    call.on('close', () => this.finish(GrpcCode.Canceled));
    call.on('drain', () => this.wake());
  }

  /** False once the call has ended for any reason. */
  get open(): boolean {
    return !this.ended;
  }

  write(message: Res): boolean {
    if (this.ended) return false;
    this.tally.sent += 1;
    return this.call.write(message);
  }

  /** Resolves when the transport buffer has drained or the call has ended. */
  drained(): Promise<void> {
    if (this.ended || !this.call.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  received(): void {
    this.tally.received += 1;
  }

  end(): void {
    if (!this.finish(GrpcCode.OK)) return;
    this.call.end();
  }

  fail(status: GrpcStatus): void {
    if (!this.finish(status.code)) return;
    // grpc-js turns an 'error' event into the trailing status, after queued writes.
    this.call.emit('error', { code: status.code, details: status.message });
  }

  onClose(fn: () => void): void {
    if (this.ended) fn();
    else this.closers.push(fn);
  }

  /** Marks the end; false if the call had already ended. */
  private finish(code: number): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.tally.handle(code);
    this.wake();
    for (const fn of this.closers.splice(0)) fn();
    return true;
  }

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
