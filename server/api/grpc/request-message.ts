/**
 * The one request message of a unary or server-streaming call: its bytes gathered as they
 * arrive (the declared length checked as soon as the prefix is in), then decoded.
 *
 * Framing errors get grpc-js's statuses and texts: a message longer than the receive limit →
 * RESOURCE_EXHAUSTED "Received message larger than max (N vs M)"; no message or a second one →
 * UNIMPLEMENTED; a compressed message → inflated or refused (message-body.ts); a message that
 * does not decode → INTERNAL.
 */
import type { PeerCertificate } from 'node:tls';
import { GrpcCode } from './codes.js';
import type { MetadataReader } from './context.js';
import { isRefusal, messageBody } from './message-body.js';

export const PREFIX_BYTES = 5;

/** What a unary or server-streaming handler served on our streams is given. */
export interface RequestCall {
  readonly request: unknown;
  readonly metadata: MetadataReader;
  /** The verified client certificate of a TLS connection, as grpc-js's call reports it. */
  getAuthContext(): { readonly sslPeerCertificate?: PeerCertificate } | null;
  /** The client's address, `host:port`, as grpc-js's call reports it. */
  getPeer(): string;
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

/** The request decoded from a call's whole bytes, or the status that answers it. */
export function decodeRequest(
  bytes: Buffer | undefined,
  path: string,
  deserialize: (bytes: Buffer) => unknown,
  encoding?: string,
  maxRecvBytes = Number.MAX_SAFE_INTEGER,
): { readonly request: unknown } | { readonly code: number; readonly details: string } {
  const problem = framingProblem(bytes, path);
  if (problem !== undefined) return { code: GrpcCode.Unimplemented, details: problem };
  const body = messageBody(bytes![0]!, bytes!.subarray(PREFIX_BYTES), encoding, maxRecvBytes);
  if (isRefusal(body)) return body;
  try {
    return { request: deserialize(body) };
  } catch {
    return { code: GrpcCode.Internal, details: 'Error deserializing request' };
  }
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
