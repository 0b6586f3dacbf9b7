/**
 * Every gRPC call on our own HTTP/2 streams, end to end: one owner per stream, nothing handed
 * on to another HTTP/2 server.
 *
 *   content-type not application/grpc…  → :status 415 and a short text (grpc-js answers 415 too)
 *   a path no service has                → UNIMPLEMENTED "The server does not implement the method <path>"
 *   unary                                → the request read whole, the handler called, one reply;
 *                                          the call emits 'cancelled' when the client resets it
 *   server-streaming with frames         → framed-stream.ts (Snapshot from images)
 *   server-streaming, bidi               → h2-streaming-call.ts (Watch, LeaseKeepAlive, Health.Watch…)
 *
 *   headers  :status 200, content-type application/grpc+proto, grpc-accept-encoding,
 *            grpc-encoding identity (as grpc-js sends them);
 *   data     length-prefixed messages, never compressed;
 *   trailers grpc-status, grpc-message; an error before any message is a trailers-only response.
 *
 * Requests may be compressed (gzip, deflate: message-body.ts). `grpc-timeout` bounds streaming
 * calls (h2-streaming-call.ts); a unary call's deadline is its client's to enforce — a member
 * answers within its own request timeout, and the answer to a stream the client has reset goes
 * nowhere. A handler that throws ends its call with INTERNAL and is reported through `onFault`
 * (logged once, counted); a call whose client reset its stream is answered into nothing (every
 * call on a closed H2Stream is a no-op).
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { encodeFields } from '../../transport/header-block-codec.js';
import type { H2Stream } from '../../transport/h2/h2-stream.js';
import { GrpcCode } from './codes.js';
import { serveFramed, type FramedStreamFunc } from './framed-stream.js';
import { fieldReader, isGrpcContentType, OK_BLOCK, peerOf, RESPONSE_BLOCK, sendStatus, tlsAuthContext } from './h2-call-blocks.js';
import { H2StreamingCall, HANDLER_FAULT, type StreamingOptions } from './h2-streaming-call.js';
import type { MethodTable, ServedMethod } from './method-table.js';
import { errorCode, errorDetails, replyFrame } from './reply-frame.js';
import { decodeRequest, RequestMessage, type RequestCall } from './request-message.js';

export interface CallServerOptions extends StreamingOptions {
  readonly methods: MethodTable;
  /** Per method path, server streams served with frames written by the function itself (framed-stream.ts). */
  readonly streams?: ReadonlyMap<string, FramedStreamFunc>;
}

/** Serves one HTTP/2 client connection's streams. */
export type H2CallServer = (stream: H2Stream) => void;

type UnaryCallback = (error: { code?: number; details?: string; message?: string } | null, value?: unknown) => void;

const MEDIA_TYPE_BLOCK = encodeFields([
  { name: ':status', value: '415', neverIndex: false },
  { name: 'content-type', value: 'text/plain; charset=utf-8', neverIndex: false },
]);
const MEDIA_TYPE_TEXT = Buffer.from('415 Unsupported Media Type: this port serves gRPC (application/grpc) over HTTP/2\n');
const EMPTY_BLOCK = Buffer.alloc(0);

export function h2CallServer(options: CallServerOptions, socket: Socket): H2CallServer {
  const callOf = (stream: H2Stream, request: unknown): RequestCall => ({
    request,
    metadata: fieldReader(stream.headers),
    getAuthContext: () => tlsAuthContext(socket),
    getPeer: () => peerOf(socket),
  });
  return (stream) => {
    if (!isGrpcContentType(stream.header('content-type'))) return refuseMediaType(stream);
    const path = stream.header(':path') ?? '';
    const method = options.methods.get(path);
    if (method === undefined) return sendStatus(stream, GrpcCode.Unimplemented, `The server does not implement the method ${path}`);
    switch (method.kind) {
      case 'unary':
        return readRequest(stream, method, options, (request) => serveUnary(method, stream, callOf(stream, request), options));
      case 'serverStream': {
        const framed = options.streams?.get(path);
        if (framed !== undefined) return readRequest(stream, method, options, (request) => serveFramed(stream, callOf(stream, request), framed, options.onFault));
        return readRequest(stream, method, options, (request) => new H2StreamingCall(stream, method, options, socket, { request }).serve());
      }
      case 'bidi':
        return new H2StreamingCall(stream, method, options, socket).serve();
      default:
        return sendStatus(stream, GrpcCode.Unimplemented, `The server does not implement the method ${path}`);
    }
  };
}

/** Reads the call's one request message and calls `onRequest` with it decoded; answers framing errors itself. */
function readRequest(stream: H2Stream, method: ServedMethod, options: CallServerOptions, onRequest: (request: unknown) => void): void {
  const message = new RequestMessage(options.maxRecvBytes);
  let refused = false;
  stream.onData = (chunk) => {
    if (refused) return;
    const refusal = message.push(chunk);
    if (refusal === undefined) return;
    refused = true;
    sendStatus(stream, GrpcCode.ResourceExhausted, refusal);
  };
  stream.onEnd = () => {
    if (refused) return;
    const decoded = decodeRequest(message.bytes(), method.path, method.deserialize, stream.header('grpc-encoding'), options.maxRecvBytes);
    if ('code' in decoded) return sendStatus(stream, decoded.code, decoded.details);
    onRequest(decoded.request);
  };
}

function serveUnary(method: ServedMethod, stream: H2Stream, request: RequestCall, options: CallServerOptions): void {
  // As grpc-js's unary call: 'cancelled' (and `cancelled`) once the client resets the stream or its connection ends.
  const call = Object.assign(new EventEmitter(), request, { cancelled: false });
  stream.onReset = () => {
    if (call.cancelled) return;
    call.cancelled = true;
    call.emit('cancelled');
  };
  const reply: UnaryCallback = (error, value) => {
    if (error) return sendStatus(stream, errorCode(error), errorDetails(error));
    const framed = replyFrame(method, value, options);
    if ('code' in framed) return sendStatus(stream, framed.code, framed.details);
    stream.respond(RESPONSE_BLOCK);
    stream.write(framed.frame);
    stream.end(OK_BLOCK);
  };
  try {
    (method.func as unknown as (call: RequestCall, callback: UnaryCallback) => void)(call, reply);
  } catch (e) {
    options.onFault?.(e, stream);
    sendStatus(stream, GrpcCode.Internal, HANDLER_FAULT);
  }
}

/** A request that is not gRPC: 415 and a line of text (the body lets a plain HTTP/2 client see why). */
function refuseMediaType(stream: H2Stream): void {
  stream.onData = () => undefined;
  stream.respond(MEDIA_TYPE_BLOCK);
  stream.write(MEDIA_TYPE_TEXT);
  stream.end(EMPTY_BLOCK);
}
