/**
 * A gRPC message's body as the handler reads it: the 5-byte prefix's compressed flag checked
 * against the call's `grpc-encoding`, and a compressed body inflated (gzip, deflate) within the
 * receive limit. Statuses and texts are grpc-js's (its server answers the same cases so), except
 * a flag other than 0 or 1, which grpc-js would take as uncompressed and grpc-go refuses.
 *
 * Inflating is synchronous and bounded by the receive limit (2 MiB by default): compressed
 * requests are rare (etcd's clients do not compress) and small.
 */
import { gunzipSync, inflateSync } from 'node:zlib';
import { GrpcCode } from './codes.js';

export interface Refusal {
  readonly code: number;
  readonly details: string;
}

/** The encodings a request may be compressed with (what the replies' `grpc-accept-encoding` says). */
export const ACCEPTED_ENCODINGS = 'identity,deflate,gzip';

/** The body of a message whose prefix had `flag`, or the status that refuses it. */
export function messageBody(flag: number, body: Buffer, encoding: string | undefined, maxRecvBytes: number): Buffer | Refusal {
  if (flag === 0) return body;
  if (flag !== 1) return { code: GrpcCode.Internal, details: `Received message with an invalid compressed flag (${flag})` };
  if (encoding === undefined || encoding === 'identity') {
    return { code: GrpcCode.Internal, details: 'Received compressed message but "grpc-encoding" header was identity' };
  }
  const inflate = encoding === 'gzip' ? gunzipSync : encoding === 'deflate' ? inflateSync : undefined;
  if (inflate === undefined) {
    return { code: GrpcCode.Unimplemented, details: `Received message compressed with unsupported encoding "${encoding}"` };
  }
  try {
    return inflate(body, { maxOutputLength: Math.max(1, maxRecvBytes) });
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
      return { code: GrpcCode.ResourceExhausted, details: `Received message that decompresses to a size larger than ${maxRecvBytes}` };
    }
    return { code: GrpcCode.Internal, details: 'Failed to decompress message' };
  }
}

export function isRefusal(v: Buffer | Refusal): v is Refusal {
  return !Buffer.isBuffer(v);
}
