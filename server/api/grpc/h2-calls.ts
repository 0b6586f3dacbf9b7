/**
 * gRPC calls answered on our own HTTP/2 streams (transport/h2/): the unary methods made by
 * `unary()` and the server streams that write their own frames (Maintenance.Snapshot) — what
 * unary-fast-path.ts does on Node's HTTP/2 streams, with the same handlers, texts and frames —
 * and the bidi streams (Watch, LeaseKeepAlive) through h2-bidi-call.ts. Any other stream goes
 * to `fallback` (the relay to grpc-js: compressed requests, a bidi call with a deadline,
 * non-gRPC content types, unknown methods).
 *
 *   headers  :status 200, content-type application/grpc+proto, grpc-accept-encoding,
 *            grpc-encoding identity (as grpc-js sends them);
 *   data     one length-prefixed message (or the stream function's blocks of messages);
 *   trailers grpc-status 0, grpc-message OK; an error is a trailers-only response.
 *
 * Request framing errors get grpc-js's statuses and texts (fast-path-request.ts). A call whose
 * client has reset the stream is answered into nothing (the stream ignores it).
 */
import type { PeerCertificate } from 'node:tls';
import type { Socket } from 'node:net';
import type { H2Stream } from '../../transport/h2/h2-stream.js';
import { H2BidiCall } from './h2-bidi-call.js';
import { fieldReader, OK_BLOCK, plainGrpcStream as plainGrpc, RESPONSE_BLOCK, sendStatus, tlsAuthContext, trailerBlock } from './h2-call-blocks.js';
import { GrpcCode } from './codes.js';
import { decodeRequest, RequestMessage, type FastUnaryCall } from './fast-path-request.js';
import type { FramedStatus, FramedStreamFunc, FramedStreamOut } from './fast-path-stream.js';
import { errorCode, errorDetails, replyFrame, type FastPathOptions, type FastUnaryFunc, type RegisteredHandler } from './unary-fast-path.js';

/** Serves one HTTP/2 client connection's streams: gRPC calls here, the rest through `fallback`. */
export type H2CallServer = (stream: H2Stream) => void;

export function h2CallServer(handlers: ReadonlyMap<string, RegisteredHandler>, options: FastPathOptions, socket: Socket, fallback: (stream: H2Stream) => void): H2CallServer {
  const auth = (): { readonly sslPeerCertificate?: PeerCertificate } | null => tlsAuthContext(socket);
  return (stream) => {
    const path = stream.header(':path');
    if (path === undefined || !plainGrpc(stream)) return fallback(stream);
    const streamFunc = options.streams?.get(path);
    const registered = handlers.get(path);
    if (streamFunc !== undefined && registered?.type === 'serverStream') {
      readRequest(stream, path, registered.deserialize, options.maxRecvBytes, auth, (call) => serveFramed(stream, call, streamFunc));
      return;
    }
    if (registered?.type === 'bidi' && stream.header('grpc-timeout') === undefined) {
      new H2BidiCall(stream, registered, options, socket).serve();
      return;
    }
    if (registered === undefined || registered.type !== 'unary' || !options.eligible.has(path)) return fallback(stream);
    readRequest(stream, path, registered.deserialize, options.maxRecvBytes, auth, (call) => serveUnary(registered, stream, call, options));
  };
}



/** Reads the call's one request message and calls `onCall` with it decoded; answers framing errors itself. */
function readRequest(
  stream: H2Stream,
  path: string,
  deserialize: (bytes: Buffer) => unknown,
  maxRecvBytes: number,
  getAuthContext: () => { readonly sslPeerCertificate?: PeerCertificate } | null,
  onCall: (call: FastUnaryCall) => void,
): void {
  const message = new RequestMessage(maxRecvBytes);
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
    const decoded = decodeRequest(message.bytes(), path, deserialize);
    if ('code' in decoded) return sendStatus(stream, decoded.code, decoded.details);
    onCall({ request: decoded.request, metadata: fieldReader(stream.headers), getAuthContext });
  };
}

function serveUnary(handler: RegisteredHandler, stream: H2Stream, call: FastUnaryCall, options: FastPathOptions): void {
  try {
    (handler.func as unknown as FastUnaryFunc)(call, (error, value) => {
      if (error) return sendStatus(stream, errorCode(error), errorDetails(error));
      const reply = replyFrame(handler, value, options);
      if ('code' in reply) return sendStatus(stream, reply.code, reply.details);
      stream.respond(RESPONSE_BLOCK);
      stream.write(reply.frame);
      stream.end(OK_BLOCK);
    });
  } catch {
    sendStatus(stream, GrpcCode.Unknown, 'Unknown error');
  }
}

function serveFramed(stream: H2Stream, call: FastUnaryCall, func: FramedStreamFunc): void {
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
  let result: Promise<FramedStatus | undefined>;
  try {
    result = func(call, out);
  } catch {
    result = Promise.resolve({ code: GrpcCode.Unknown, details: 'Unknown error' });
  }
  result.then(finish, () => finish({ code: GrpcCode.Unknown, details: 'Unknown error' }));
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
