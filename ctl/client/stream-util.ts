/**
 * Helpers for gRPC streams: abort wiring and the resumable-error test shared by watch and
 * lease keep-alive.
 */
import type { ClientError } from './errors.js';
import { GrpcCode } from './grpc-codes.js';

/** Cancels `stream` when `signal` aborts; returns the function that removes the listener. */
export function cancelOnAbort(stream: { cancel(): void }, signal: AbortSignal | undefined): () => void {
  if (signal === undefined) return () => undefined;
  const onAbort = (): void => stream.cancel();
  if (signal.aborted) stream.cancel();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/** A stream that failed with Unavailable (member gone, no leader, connection lost) may be reopened elsewhere. */
export function resumable(e: ClientError): boolean {
  return e.code === GrpcCode.Unavailable || e.code === GrpcCode.Internal;
}

/** A pause before reopening a stream, growing with the number of tries (max 1 s). */
export function reopenPauseMs(tries: number): number {
  return Math.min(1000, 50 * 2 ** Math.min(tries, 5));
}
