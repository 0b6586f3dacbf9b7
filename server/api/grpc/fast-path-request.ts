/**
 * What the calls served on Node's HTTP/2 stream directly share (unary-fast-path.ts,
 * fast-path-stream.ts): reading the one request message of a call, the response headers and
 * trailers grpc-js sends, trailers-only error statuses, and the call's metadata and TLS peer
 * as grpc-js reports them.
 *
 * Framing errors get grpc-js's own statuses and texts: a message longer than the receive
 * limit → RESOURCE_EXHAUSTED "Received message larger than max (N vs M)"; no message or a
 * second one → UNIMPLEMENTED; a message that does not decode → INTERNAL.
 */
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { TLSSocket, type PeerCertificate } from 'node:tls';
import { GrpcCode } from './codes.js';
import type { MetadataReader } from './context.js';

export const PREFIX_BYTES = 5;

export const RESPONSE_HEADERS = {
  ':status': 200,
  'content-type': 'application/grpc+proto',
  'grpc-accept-encoding': 'identity,deflate,gzip',
  'grpc-encoding': 'identity',
} as const;
export const OK_TRAILERS = { 'grpc-status': '0', 'grpc-message': 'OK' } as const;
export const REPLY_OPTIONS = { waitForTrailers: true } as const;
const END_OPTIONS = { endStream: true } as const;

/** What a call served on the stream is given: the decoded request, its metadata, its TLS peer. */
export interface FastUnaryCall {
  readonly request: unknown;
  readonly metadata: MetadataReader;
  /** The verified client certificate of a TLS connection, as grpc-js's call reports it. */
  getAuthContext(): { readonly sslPeerCertificate?: PeerCertificate } | null;
}

/** Whether the call is plain gRPC: a gRPC content type and no compression. */
export function plainGrpc(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  if (typeof type !== 'string' || !type.startsWith('application/grpc')) return false;
  const encoding = headers['grpc-encoding'];
  return encoding === undefined || encoding === 'identity';
}

/** A call's request bytes as they arrive, the declared length checked as soon as the prefix is in. */
export class RequestMessage {
  #first: Buffer | undefined;
  #more: Buffer[] | undefined;
  #size = 0;
  #checked = false;

  constructor(private readonly maxRecvBytes: number) {}

  /** Adds a chunk; returns the refusal (RESOURCE_EXHAUSTED text) when the declared message is over the limit. */
  push(chunk: Buffer): string | undefined {
    if (this.#first === undefined) this.#first = chunk;
    else (this.#more ??= [this.#first]).push(chunk);
    this.#size += chunk.length;
    if (this.#checked || this.#size < PREFIX_BYTES) return undefined;
    this.#checked = true;
    const length = this.bytes()!.readUInt32BE(1);
    return length > this.maxRecvBytes ? `Received message larger than max (${length} vs ${this.maxRecvBytes})` : undefined;
  }

  /** Every byte received (undefined: none). */
  bytes(): Buffer | undefined {
    return this.#more === undefined ? this.#first : Buffer.concat(this.#more, this.#size);
  }
}

/** The request decoded from a call's whole bytes, or the status that answers it (grpc-js's codes and texts). */
export function decodeRequest(
  bytes: Buffer | undefined,
  path: string,
  deserialize: (bytes: Buffer) => unknown,
): { readonly request: unknown } | { readonly code: number; readonly details: string } {
  const problem = framingProblem(bytes, path);
  if (problem !== undefined) return { code: GrpcCode.Unimplemented, details: problem };
  try {
    return { request: deserialize(bytes!.subarray(PREFIX_BYTES)) };
  } catch {
    return { code: GrpcCode.Internal, details: 'Error deserializing request' };
  }
}

/**
 * Reads the call's one request message and calls `onCall` with it decoded; answers framing and
 * decoding errors itself (then `onCall` is not called).
 */
export function readRequest(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  path: string,
  deserialize: (bytes: Buffer) => unknown,
  maxRecvBytes: number,
  onCall: (call: FastUnaryCall) => void,
): void {
  stream.on('error', ignore);
  const message = new RequestMessage(maxRecvBytes);
  let refused = false;
  stream.on('data', (chunk: Buffer) => {
    if (refused) return;
    const refusal = message.push(chunk);
    if (refusal === undefined) return;
    refused = true;
    sendStatus(stream, GrpcCode.ResourceExhausted, refusal);
  });
  stream.on('end', () => {
    if (refused) return;
    const decoded = decodeRequest(message.bytes(), path, deserialize);
    if ('code' in decoded) return sendStatus(stream, decoded.code, decoded.details);
    onCall({ request: decoded.request, metadata: headerReader(headers), getAuthContext: () => tlsAuthContext(stream) });
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

/** The trailers that end a call with `code` and `details`. */
export function statusTrailers(code: number, details: string): Record<string, string> {
  return { 'grpc-status': String(code), 'grpc-message': encodeURI(details) };
}

/** A trailers-only response carrying `code` and `details`. */
export function sendStatus(stream: ServerHttp2Stream, code: number, details: string): void {
  if (stream.destroyed || stream.closed || stream.headersSent) return;
  stream.respond({ ...statusTrailers(code, details), ':status': 200, 'content-type': 'application/grpc+proto' }, END_OPTIONS);
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
