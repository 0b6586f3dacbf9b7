/**
 * Malformed request frames as values.
 *
 * grpc-js answers a request whose bytes do not decode with INTERNAL "Error deserializing
 * request" from below the handlers: the call is never counted and the reason is hidden.
 * `guardDecoding` wraps every request deserializer of a service so that a decode failure
 * yields a `MalformedRequest` value instead of an exception; the handlers then end the call
 * with `malformedStatus` — code Internal and grpc-go's text
 * `grpc: error unmarshalling request: <reason>` — and count it like any other outcome.
 *
 * The KV writes (Put, DeleteRange, Txn) keep the bytes they were decoded from
 * (raw-request.ts): they enter the Raft log as those bytes.
 */
import type { ServiceDefinition } from '@grpc/grpc-js';
import { keepRaw } from '../raw-request.js';
import { GrpcCode, type GrpcStatus } from './codes.js';
import { decodePutRequest } from '../../apply/put-request-decoder.js';

/** Decoders that replace the generated ones on the request path (same messages, fewer copies). */
const FAST_DECODERS: Readonly<Record<string, (bytes: Buffer) => unknown>> = { '/etcdserverpb.KV/Put': decodePutRequest };

/** Methods whose requests are proposed to the log as the client encoded them. */
const LOGGED_AS_SENT: ReadonlySet<string> = new Set(['/etcdserverpb.KV/Put', '/etcdserverpb.KV/DeleteRange', '/etcdserverpb.KV/Txn']);

export class MalformedRequest {
  constructor(readonly reason: string) {}
}

/** What a handler receives: the decoded request, or the reason it did not decode. */
export type Incoming<T> = T | MalformedRequest;

export function malformedStatus(m: MalformedRequest): GrpcStatus {
  return { code: GrpcCode.Internal, message: `grpc: error unmarshalling request: ${m.reason}` };
}

/** A copy of `def` whose request deserializers return MalformedRequest instead of throwing. */
export function guardDecoding(def: ServiceDefinition): ServiceDefinition {
  const guarded: Record<string, ServiceDefinition[string]> = {};
  for (const [name, method] of Object.entries(def)) {
    const decode = FAST_DECODERS[method.path] ?? method.requestDeserialize;
    const keep = LOGGED_AS_SENT.has(method.path);
    guarded[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer): unknown => {
        try {
          const message: unknown = decode(bytes);
          return keep ? keepRaw(message as object, bytes) : message;
        } catch (e) {
          return new MalformedRequest(e instanceof Error ? e.message : String(e));
        }
      },
    };
  }
  return guarded;
}
