/**
 * Unary calls served straight on Node's HTTP/2 stream, below grpc-js's per-call machinery.
 *
 * grpc-js builds, per call, an intercepting call object, a Metadata copy of the headers,
 * a stream decoder, a read queue, a writable call object and several event listeners;
 * on a busy member that is a large share of the CPU per request. The handlers made by
 * `unary()` only read the request and its metadata, so for them this module reads the
 * request frame itself, calls the same handler, and writes the reply frame:
 *   headers  :status 200, content-type application/grpc+proto, grpc-accept-encoding,
 *            grpc-encoding identity (as grpc-js sends them);
 *   data     one length-prefixed message;
 *   trailers grpc-status 0, grpc-message OK.
 * An error is a trailers-only response (grpc-status, grpc-message), as grpc-js sends it.
 *
 * Server streams given in `streams` (Maintenance.Snapshot) are served the same way with
 * frames their function writes itself (fast-path-stream.ts).
 *
 * What stays with grpc-js: every other streaming method; a call whose content-type is not
 * gRPC (grpc-js answers 415); a call with a `grpc-encoding` other than identity (compressed
 * requests). Deadlines (`grpc-timeout`) are the client's to enforce: a member answers
 * within its own request timeout, and a reply to a stream the client has reset is dropped.
 * Reading the request and framing errors: fast-path-request.ts.
 *
 * The hook replaces grpc-js's (private) per-stream handler on one server instance before
 * it is bound; if that handler is not where grpc-js 1.14 keeps it, nothing is replaced and
 * every call takes grpc-js's own path.
 */
import type { Server, ServerErrorResponse } from '@grpc/grpc-js';
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { GrpcCode } from './codes.js';
import { OK_TRAILERS, plainGrpc, PREFIX_BYTES, readRequest, REPLY_OPTIONS, RESPONSE_HEADERS, sendStatus, type FastUnaryCall } from './fast-path-request.js';
import { serveFramedStream, type FramedStreamFunc } from './fast-path-stream.js';

export type { FastUnaryCall } from './fast-path-request.js';

/** A handler as grpc-js registers it (the fields this module reads). */
export interface RegisteredHandler {
  readonly type: string;
  readonly path: string;
  readonly func: (...args: never[]) => void;
  readonly serialize: (value: unknown) => Buffer;
  readonly deserialize: (bytes: Buffer) => unknown;
}

export type FastUnaryCallback = (error: ServerErrorResponse | { code: number; details: string } | null, value?: unknown) => void;
export type FastUnaryFunc = (call: FastUnaryCall, callback: FastUnaryCallback) => void;

/** The grpc-js internals the hook relies on. */
interface ServerInternals {
  _streamHandler?: (extra: unknown, stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void;
  handlers?: Map<string, RegisteredHandler>;
  onStreamOpened?: (stream: ServerHttp2Stream) => void;
}

export interface FastPathOptions {
  /** Paths of the unary methods whose handlers only read `request` and `metadata` (those made by `unary()`). */
  readonly eligible: ReadonlySet<string>;
  readonly maxRecvBytes: number;
  readonly maxSendBytes: number;
  /**
   * Per method path, a serializer that writes the 5-byte message prefix and the response into
   * one buffer (see framed-replies.ts); other methods use grpc-js's serializer and a copy.
   */
  readonly framers?: ReadonlyMap<string, (value: unknown) => Buffer>;
  /** Per method path, server streams served with frames written by the function itself (fast-path-stream.ts). */
  readonly streams?: ReadonlyMap<string, FramedStreamFunc>;
}

/**
 * Serves `server`'s eligible unary methods on the HTTP/2 stream directly. Call before the
 * server is bound or given connections. Returns whether the hook was installed.
 */
/** The handlers registered on `server` by path (grpc-js's private map), if it is where grpc-js 1.14 keeps it. */
export function registeredHandlers(server: Server): ReadonlyMap<string, RegisteredHandler> | undefined {
  const handlers = (server as unknown as ServerInternals).handlers;
  return handlers instanceof Map ? handlers : undefined;
}

export function installUnaryFastPath(server: Server, options: FastPathOptions): boolean {
  const internals = server as unknown as ServerInternals;
  const original = internals._streamHandler;
  const handlers = internals.handlers;
  if (typeof original !== 'function' || !(handlers instanceof Map)) return false;
  internals._streamHandler = function (this: ServerInternals, extra, stream, headers) {
    const path = headers[':path'];
    const streamFunc = path === undefined ? undefined : options.streams?.get(path);
    if (streamFunc !== undefined) {
      const registered = handlers.get(path!);
      if (registered !== undefined && registered.type === 'serverStream' && plainGrpc(headers)) {
        this.onStreamOpened?.(stream);
        serveFramedStream(stream, headers, path!, registered.deserialize, options.maxRecvBytes, streamFunc);
        return;
      }
    }
    const handler = path === undefined || !options.eligible.has(path) ? undefined : handlers.get(path);
    if (handler === undefined || handler.type !== 'unary' || !plainGrpc(headers)) {
      original.call(this, extra, stream, headers);
      return;
    }
    this.onStreamOpened?.(stream);
    serveUnary(handler, stream, headers, options);
  };
  return true;
}

function serveUnary(handler: RegisteredHandler, stream: ServerHttp2Stream, headers: IncomingHttpHeaders, options: FastPathOptions): void {
  readRequest(stream, headers, handler.path, handler.deserialize, options.maxRecvBytes, (call) => {
    try {
      (handler.func as unknown as FastUnaryFunc)(call, (error, value) => {
        if (error) return sendStatus(stream, errorCode(error), errorDetails(error));
        reply(handler, stream, value, options);
      });
    } catch {
      sendStatus(stream, GrpcCode.Unknown, 'Unknown error');
    }
  });
}

function reply(handler: RegisteredHandler, stream: ServerHttp2Stream, value: unknown, options: FastPathOptions): void {
  if (stream.destroyed || stream.closed) return;
  const reply = replyFrame(handler, value, options);
  if ('code' in reply) return sendStatus(stream, reply.code, reply.details);
  stream.once('wantTrailers', () => stream.sendTrailers(OK_TRAILERS));
  stream.respond(RESPONSE_HEADERS, REPLY_OPTIONS);
  stream.end(reply.frame);
}

/** The reply message framed (its 5-byte prefix in front), or the status that replaces it (grpc-js's texts). */
export function replyFrame(
  handler: RegisteredHandler,
  value: unknown,
  options: Pick<FastPathOptions, 'framers' | 'maxSendBytes'>,
): { readonly frame: Buffer } | { readonly code: number; readonly details: string } {
  let frame: Buffer;
  try {
    frame = frameOf(handler, value, options.framers?.get(handler.path));
  } catch {
    return { code: GrpcCode.Internal, details: 'Error serializing response' };
  }
  if (frame.length - PREFIX_BYTES > options.maxSendBytes) {
    return { code: GrpcCode.ResourceExhausted, details: `Sent message larger than max (${frame.length} vs. ${options.maxSendBytes})` };
  }
  return { frame };
}

/** The length-prefixed reply message. */
function frameOf(handler: RegisteredHandler, value: unknown, framer: ((value: unknown) => Buffer) | undefined): Buffer {
  if (framer !== undefined) return framer(value);
  const body = handler.serialize(value);
  const frame = Buffer.allocUnsafe(PREFIX_BYTES + body.length);
  frame[0] = 0;
  frame.writeUInt32BE(body.length, 1);
  body.copy(frame, PREFIX_BYTES);
  return frame;
}

export function errorCode(error: object): number {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && Number.isInteger(code) ? code : GrpcCode.Unknown;
}

export function errorDetails(error: object): string {
  const e = error as { code?: unknown; details?: unknown; message?: unknown };
  if (typeof e.code === 'number' && Number.isInteger(e.code) && typeof e.details === 'string') return e.details;
  return typeof e.message === 'string' ? e.message : 'Unknown Error';
}
