/**
 * What every gRPC call answered on our own HTTP/2 streams shares (h2-calls.ts,
 * h2-streaming-call.ts, the front-end thread's local calls): the response and trailer header
 * blocks grpc-js sends (encoded once), trailers-only statuses, the call's metadata read from
 * its request headers, and the TLS peer as grpc-js reports it.
 */
import type { Socket } from 'node:net';
import { TLSSocket, type PeerCertificate } from 'node:tls';
import { encodeFields, type HeaderField } from '../../transport/header-block-codec.js';
import type { H2Stream } from '../../transport/h2/h2-stream.js';
import type { MetadataReader } from './context.js';
import { ACCEPTED_ENCODINGS } from './message-body.js';

export const RESPONSE_HEADERS = {
  ':status': 200,
  'content-type': 'application/grpc+proto',
  'grpc-accept-encoding': ACCEPTED_ENCODINGS,
  'grpc-encoding': 'identity',
} as const;
export const OK_TRAILERS = { 'grpc-status': '0', 'grpc-message': 'OK' } as const;

/** The trailers that end a call with `code` and `details`. */
export function statusTrailers(code: number, details: string): Record<string, string> {
  return { 'grpc-status': String(code), 'grpc-message': encodeURI(details) };
}

const fieldsOf = (o: Readonly<Record<string, string | number>>): HeaderField[] =>
  Object.entries(o).map(([name, value]) => ({ name, value: String(value), neverIndex: false }));

export const RESPONSE_BLOCK = encodeFields(fieldsOf(RESPONSE_HEADERS));
export const OK_BLOCK = encodeFields(fieldsOf(OK_TRAILERS));

/** The trailers-only block of a status. */
export function statusBlock(code: number, details: string): Buffer {
  return encodeFields(fieldsOf({ ':status': 200, 'content-type': 'application/grpc+proto', ...statusTrailers(code, details) }));
}

/** The trailer block of a status sent after the response headers. */
export function trailerBlock(code: number, details: string): Buffer {
  return encodeFields(fieldsOf(statusTrailers(code, details)));
}

/** Whether a request's content type is gRPC's (grpc-js serves `application/grpc` and every `application/grpc…`). */
export function isGrpcContentType(type: string | undefined): boolean {
  return type !== undefined && type.startsWith('application/grpc');
}

/** A gRPC call with an uncompressed request (what the front-end thread answers itself; the rest goes to the core). */
export function plainGrpcStream(stream: H2Stream): boolean {
  if (!isGrpcContentType(stream.header('content-type'))) return false;
  const encoding = stream.header('grpc-encoding');
  return encoding === undefined || encoding === 'identity';
}

/** Answers the call with a trailers-only status. */
export function sendStatus(stream: H2Stream, code: number, details: string): void {
  stream.respond(statusBlock(code, details), true);
}

/** Request metadata read from the header fields, as grpc-js's Metadata.get returns it (text values). */
export function fieldReader(fields: readonly HeaderField[]): MetadataReader {
  return {
    get(key: string): string[] {
      const out: string[] = [];
      for (const f of fields) if (f.name === key) for (const v of f.value.split(',')) out.push(v.trim());
      return out;
    },
  };
}

/** The peer certificate of the connection when it is TLS and verified (grpc-js reports the same). */
export function tlsAuthContext(socket: Socket): { readonly sslPeerCertificate?: PeerCertificate } | null {
  if (!(socket instanceof TLSSocket)) return null;
  return socket.authorized ? { sslPeerCertificate: socket.getPeerCertificate() } : {};
}

/** The client's address as grpc-js's `getPeer()` gives it. */
export function peerOf(socket: Socket): string {
  return socket.remoteAddress === undefined ? 'unknown' : `${socket.remoteAddress}:${socket.remotePort}`;
}
