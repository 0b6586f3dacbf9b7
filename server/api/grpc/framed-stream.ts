/**
 * A server-streaming call whose function writes ready frames itself (Maintenance.Snapshot:
 * snapshot-frames.ts) instead of one message at a time: a block of length-prefixed messages is
 * one write on the HTTP/2 stream.
 *
 * Contract for the function: it is called once the request is read and decoded; `out.write`
 * takes a buffer of whole length-prefixed messages and resolves when the transport has room
 * for more (or the client has gone: then `out.open` is false and the function should stop);
 * it resolves with the status that ends the call (undefined: OK). The response headers go out
 * with the first frames; a status before any frame is a trailers-only response, after frames
 * it is the trailers. A function that throws or rejects ends the call with INTERNAL and is
 * reported through `onFault` (it is expected to log and return its own status instead).
 */
import type { H2Stream } from '../../transport/h2/h2-stream.js';
import { GrpcCode } from './codes.js';
import { OK_BLOCK, RESPONSE_BLOCK, sendStatus, trailerBlock } from './h2-call-blocks.js';
import { HANDLER_FAULT } from './h2-streaming-call.js';
import type { RequestCall } from './request-message.js';

export interface FramedStreamOut {
  /** False once the stream is closed (the client went away or reset it). */
  readonly open: boolean;
  /** Writes whole length-prefixed messages; resolves when the transport can take more. */
  write(frames: Buffer): Promise<void>;
}

export interface FramedStatus {
  readonly code: number;
  readonly details: string;
}

export type FramedStreamFunc = (call: RequestCall, out: FramedStreamOut) => Promise<FramedStatus | undefined>;

export function serveFramed(stream: H2Stream, call: RequestCall, func: FramedStreamFunc, onFault?: (err: unknown, stream: H2Stream) => void): void {
  let headersSent = false;
  const out: FramedStreamOut = {
    get open() {
      return !stream.closed;
    },
    async write(frames) {
      if (stream.closed) return;
      if (!headersSent) {
        headersSent = true;
        stream.respond(RESPONSE_BLOCK);
      }
      if (!stream.write(frames)) await drainedOrClosed(stream);
    },
  };
  const finish = (status: FramedStatus | undefined): void => {
    if (stream.closed) return;
    if (!headersSent) {
      if (status !== undefined) return sendStatus(stream, status.code, status.details);
      stream.respond(RESPONSE_BLOCK);
    }
    stream.end(status === undefined ? OK_BLOCK : trailerBlock(status.code, status.details));
  };
  const fault = (e: unknown): void => {
    onFault?.(e, stream);
    finish({ code: GrpcCode.Internal, details: HANDLER_FAULT });
  };
  let result: Promise<FramedStatus | undefined>;
  try {
    result = func(call, out);
  } catch (e) {
    return fault(e);
  }
  result.then(finish, fault);
}

/** Resolves once the stream's queued data has gone out, or it closed. */
function drainedOrClosed(stream: H2Stream): Promise<void> {
  return new Promise<void>((resolve) => {
    stream.onDrain = () => {
      stream.onDrain = undefined;
      resolve();
    };
    stream.onReset = () => resolve();
    if (stream.closed) resolve();
  });
}
