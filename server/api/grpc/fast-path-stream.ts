/**
 * A server-streaming call served on Node's HTTP/2 stream directly, with frames its function
 * writes itself (Maintenance.Snapshot: snapshot-frames.ts). grpc-js would serialize every
 * message, copy it behind its 5-byte prefix and write it on its own; here a block of ready
 * frames is one write.
 *
 * Contract for the function: it is called once the request is read and decoded; `out.write`
 * takes a buffer of whole length-prefixed messages and resolves when the transport has room
 * for more (or the client has gone: then `out.open` is false and the function should stop);
 * it resolves with the status that ends the call (undefined: OK). The response headers go out
 * with the first frames; a status before any frame is a trailers-only response, after frames
 * it is the trailers. A function that throws ends the call with Unknown "Unknown error"
 * (it is expected to log and return its own status instead).
 */
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { drainedOrClosed } from '../../transport/drained.js';
import { GrpcCode } from './codes.js';
import { OK_TRAILERS, readRequest, REPLY_OPTIONS, RESPONSE_HEADERS, sendStatus, statusTrailers, type FastUnaryCall } from './fast-path-request.js';

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

export type FramedStreamFunc = (call: FastUnaryCall, out: FramedStreamOut) => Promise<FramedStatus | undefined>;

export function serveFramedStream(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  path: string,
  deserialize: (bytes: Buffer) => unknown,
  maxRecvBytes: number,
  func: FramedStreamFunc,
): void {
  readRequest(stream, headers, path, deserialize, maxRecvBytes, (call) => {
    const out: FramedStreamOut = {
      get open() {
        return !stream.destroyed && !stream.closed;
      },
      async write(frames) {
        if (!out.open) return;
        if (!stream.headersSent) stream.respond(RESPONSE_HEADERS, REPLY_OPTIONS);
        if (!stream.write(frames)) await drainedOrClosed(stream);
      },
    };
    let result: Promise<FramedStatus | undefined>;
    try {
      result = func(call, out);
    } catch {
      result = Promise.resolve({ code: GrpcCode.Unknown, details: 'Unknown error' });
    }
    result.then(
      (status) => finish(stream, status),
      () => finish(stream, { code: GrpcCode.Unknown, details: 'Unknown error' }),
    );
  });
}

function finish(stream: ServerHttp2Stream, status: FramedStatus | undefined): void {
  if (stream.destroyed || stream.closed) return;
  if (!stream.headersSent) {
    if (status !== undefined) return sendStatus(stream, status.code, status.details);
    stream.respond(RESPONSE_HEADERS, REPLY_OPTIONS);
  }
  stream.once('wantTrailers', () => stream.sendTrailers(status === undefined ? OK_TRAILERS : statusTrailers(status.code, status.details)));
  stream.end();
}
