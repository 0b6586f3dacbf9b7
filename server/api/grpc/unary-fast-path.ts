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
 * What stays with grpc-js: every streaming method; a call whose content-type is not gRPC
 * (grpc-js answers 415); a call with a `grpc-encoding` other than identity (compressed
 * requests). Deadlines (`grpc-timeout`) are the client's to enforce: a member answers
 * within its own request timeout, and a reply to a stream the client has reset is dropped.
 * Framing errors get grpc-js's own statuses and texts: a message longer than the receive
 * limit → RESOURCE_EXHAUSTED "Received message larger than max (N vs M)"; no message or a
 * second one → UNIMPLEMENTED.
 *
 * The hook replaces grpc-js's (private) per-stream handler on one server instance before
 * it is bound; if that handler is not where grpc-js 1.14 keeps it, nothing is replaced and
 * every call takes grpc-js's own path.
 */
import type { Server, ServerErrorResponse } from '@grpc/grpc-js';
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { TLSSocket, type PeerCertificate } from 'node:tls';
import { GrpcCode } from './codes.js';
import type { MetadataReader } from './context.js';

/** A unary handler as grpc-js registers it (the fields this module reads). */
interface RegisteredHandler {
  readonly type: string;
  readonly path: string;
  readonly func: (...args: never[]) => void;
  readonly serialize: (value: unknown) => Buffer;
  readonly deserialize: (bytes: Buffer) => unknown;
}

/** What a fast-path handler is called with: grpc-js's unary call and callback, narrowed. */
export interface FastUnaryCall {
  readonly request: unknown;
  readonly metadata: MetadataReader;
  /** The verified client certificate of a TLS connection, as grpc-js's call reports it. */
  getAuthContext(): { readonly sslPeerCertificate?: PeerCertificate } | null;
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
}

const PREFIX_BYTES = 5;

const RESPONSE_HEADERS = {
  ':status': 200,
  'content-type': 'application/grpc+proto',
  'grpc-accept-encoding': 'identity,deflate,gzip',
  'grpc-encoding': 'identity',
} as const;
const OK_TRAILERS = { 'grpc-status': '0', 'grpc-message': 'OK' } as const;
const REPLY_OPTIONS = { waitForTrailers: true } as const;
const END_OPTIONS = { endStream: true } as const;

/**
 * Serves `server`'s eligible unary methods on the HTTP/2 stream directly. Call before the
 * server is bound or given connections. Returns whether the hook was installed.
 */
export function installUnaryFastPath(server: Server, options: FastPathOptions): boolean {
  const internals = server as unknown as ServerInternals;
  const original = internals._streamHandler;
  const handlers = internals.handlers;
  if (typeof original !== 'function' || !(handlers instanceof Map)) return false;
  internals._streamHandler = function (this: ServerInternals, extra, stream, headers) {
    const path = headers[':path'];
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

function plainGrpc(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  if (typeof type !== 'string' || !type.startsWith('application/grpc')) return false;
  const encoding = headers['grpc-encoding'];
  return encoding === undefined || encoding === 'identity';
}

function serveUnary(handler: RegisteredHandler, stream: ServerHttp2Stream, headers: IncomingHttpHeaders, options: FastPathOptions): void {
  stream.on('error', ignore);
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let checked = false;
  let refused = false;
  stream.on('data', (chunk: Buffer) => {
    if (refused) return;
    if (first === undefined) first = chunk;
    else (more ??= [first]).push(chunk);
    size += chunk.length;
    if (!checked && size >= PREFIX_BYTES) {
      checked = true;
      const head = more === undefined ? first : Buffer.concat(more, size);
      const length = head.readUInt32BE(1);
      if (length > options.maxRecvBytes) {
        refused = true;
        sendStatus(stream, GrpcCode.ResourceExhausted, `Received message larger than max (${length} vs ${options.maxRecvBytes})`);
      }
    }
  });
  stream.on('end', () => {
    if (refused) return;
    const bytes = more === undefined ? first : Buffer.concat(more, size);
    const problem = framingProblem(bytes, handler.path);
    if (problem !== undefined) return sendStatus(stream, GrpcCode.Unimplemented, problem);
    const message = bytes!.subarray(PREFIX_BYTES);
    let request: unknown;
    try {
      request = handler.deserialize(message);
    } catch {
      return sendStatus(stream, GrpcCode.Internal, 'Error deserializing request');
    }
    const call: FastUnaryCall = { request, metadata: headerReader(headers), getAuthContext: () => tlsAuthContext(stream) };
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

/** The peer certificate of the stream's connection when it is TLS and verified (grpc-js reports the same). */
function tlsAuthContext(stream: ServerHttp2Stream): { readonly sslPeerCertificate?: PeerCertificate } | null {
  const socket = stream.session?.socket;
  if (!(socket instanceof TLSSocket)) return null;
  return socket.authorized ? { sslPeerCertificate: socket.getPeerCertificate() } : {};
}

/** Why `bytes` is not exactly one length-prefixed message (grpc-js's texts), or undefined. */
function framingProblem(bytes: Buffer | undefined, path: string): string | undefined {
  if (bytes === undefined || bytes.length < PREFIX_BYTES || bytes.length < PREFIX_BYTES + bytes.readUInt32BE(1)) {
    return `Received no request message for server streaming method ${path}`;
  }
  if (bytes.length > PREFIX_BYTES + bytes.readUInt32BE(1)) {
    return `Received a second request message for server streaming method ${path}`;
  }
  return undefined;
}

function reply(handler: RegisteredHandler, stream: ServerHttp2Stream, value: unknown, options: FastPathOptions): void {
  if (stream.destroyed || stream.closed) return;
  let frame: Buffer;
  try {
    frame = frameOf(handler, value, options.framers?.get(handler.path));
  } catch {
    return sendStatus(stream, GrpcCode.Internal, 'Error serializing response');
  }
  if (frame.length - PREFIX_BYTES > options.maxSendBytes) {
    return sendStatus(stream, GrpcCode.ResourceExhausted, `Sent message larger than max (${frame.length} vs. ${options.maxSendBytes})`);
  }
  stream.once('wantTrailers', () => stream.sendTrailers(OK_TRAILERS));
  stream.respond(RESPONSE_HEADERS, REPLY_OPTIONS);
  stream.end(frame);
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

/** A trailers-only response carrying `code` and `details`. */
function sendStatus(stream: ServerHttp2Stream, code: number, details: string): void {
  if (stream.destroyed || stream.closed || stream.headersSent) return;
  stream.respond(
    {
      'grpc-status': String(code),
      'grpc-message': encodeURI(details),
      ':status': 200,
      'content-type': 'application/grpc+proto',
    },
    END_OPTIONS,
  );
}

function errorCode(error: object): number {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && Number.isInteger(code) ? code : GrpcCode.Unknown;
}

function errorDetails(error: object): string {
  const e = error as { code?: unknown; details?: unknown; message?: unknown };
  if (typeof e.code === 'number' && Number.isInteger(e.code) && typeof e.details === 'string') return e.details;
  return typeof e.message === 'string' ? e.message : 'Unknown Error';
}

/** Request metadata read from the headers, as grpc-js's Metadata.get returns it (text values). */
function headerReader(headers: IncomingHttpHeaders): MetadataReader {
  return {
    get(key: string): string[] {
      const v = headers[key];
      if (v === undefined) return [];
      if (Array.isArray(v)) return v;
      return v.split(',').map((s) => s.trim());
    },
  };
}

function ignore(): void {}
