/**
 * A reply message as it goes on the wire: length-prefixed, by the method's framer when it has
 * one (framed-replies.ts) or its serializer and a copy; the statuses that replace a reply that
 * cannot be sent (grpc-js's texts); and how a handler's error value becomes a status.
 */
import { GrpcCode } from './codes.js';
import type { ServedMethod } from './method-table.js';
import { PREFIX_BYTES } from './request-message.js';

export interface ReplyOptions {
  readonly maxSendBytes: number;
  /**
   * Per method path, a serializer that writes the 5-byte message prefix and the response into
   * one buffer (see framed-replies.ts); other methods use their serializer and a copy.
   */
  readonly framers?: ReadonlyMap<string, (value: unknown) => Buffer>;
}

/** The reply message framed (its 5-byte prefix in front), or the status that replaces it. */
export function replyFrame(method: ServedMethod, value: unknown, options: ReplyOptions): { readonly frame: Buffer } | { readonly code: number; readonly details: string } {
  let frame: Buffer;
  try {
    frame = frameOf(method, value, options.framers?.get(method.path));
  } catch {
    return { code: GrpcCode.Internal, details: 'Error serializing response' };
  }
  if (frame.length - PREFIX_BYTES > options.maxSendBytes) {
    return { code: GrpcCode.ResourceExhausted, details: `Sent message larger than max (${frame.length} vs. ${options.maxSendBytes})` };
  }
  return { frame };
}

function frameOf(method: ServedMethod, value: unknown, framer: ((value: unknown) => Buffer) | undefined): Buffer {
  if (framer !== undefined) return framer(value);
  const body = method.serialize(value);
  const frame = Buffer.allocUnsafe(PREFIX_BYTES + body.length);
  frame[0] = 0;
  frame.writeUInt32BE(body.length, 1);
  body.copy(frame, PREFIX_BYTES);
  return frame;
}

/** The code of a handler's error value (grpc-js reads `code` the same way). */
export function errorCode(error: object): number {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && Number.isInteger(code) ? code : GrpcCode.Unknown;
}

/** The text of a handler's error value: `details`, else `message`. */
export function errorDetails(error: object): string {
  const e = error as { code?: unknown; details?: unknown; message?: unknown };
  if (typeof e.code === 'number' && Number.isInteger(e.code) && typeof e.details === 'string') return e.details;
  return typeof e.message === 'string' ? e.message : 'Unknown Error';
}
