/**
 * A call's cancellation as an AbortSignal: aborted once the client cancels the call (its
 * RST_STREAM, its connection ending, a deadline) — the `'cancelled'` event of grpc-js's server
 * calls, which our own HTTP/2 calls emit too (h2-calls.ts, h2-streaming-call.ts). Services
 * that wait (a Lock, a Campaign, an Observe) take it as Go's handlers take `ctx.Done()`.
 */
export interface CancellableCall {
  readonly cancelled?: boolean;
  on(event: 'cancelled', listener: () => void): unknown;
}

export function callSignal(call: CancellableCall): AbortSignal {
  const controller = new AbortController();
  if (call.cancelled === true) controller.abort();
  else call.on('cancelled', () => controller.abort());
  return controller.signal;
}
