/**
 * The valid request of the conformance tests: a gRPC unary `KV/Range` call, and what a valid
 * answer to it looks like (RFC 9113 §8.1, gRPC over HTTP/2: `:status` 200, a `grpc-status`
 * trailer). A Range's reply carries a response header, so it always has a DATA frame.
 */
import type { Target } from './connection.js';
import type { Fields } from './hpack-bytes.js';

export const RANGE_PATH = '/etcdserverpb.KV/Range';

/** RangeRequest { key: "k" } as one length-prefixed gRPC message. */
export const RANGE_BODY: Buffer = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x03, 0x0a, 0x01, 0x6b]);

/** RangeRequest {} (every field default) as one length-prefixed gRPC message. */
export const EMPTY_MESSAGE: Buffer = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x00]);

/** The request head of a gRPC call to `path` on `target`. */
export function grpcFields(target: Target, path = RANGE_PATH): Fields {
  const url = new URL(target.url);
  return [
    [':method', 'POST'],
    [':scheme', url.protocol === 'https:' ? 'https' : 'http'],
    [':path', path],
    [':authority', url.host],
    ['content-type', 'application/grpc'],
    ['te', 'trailers'],
  ];
}

/** `fields` with the field `name` replaced (or removed when `value` is undefined). */
export function withField(fields: Fields, name: string, value: string | undefined): Fields {
  const out = fields.filter(([n]) => n !== name);
  return value === undefined ? out : [...out, [name, value] as const];
}

/** The value of the first field `name` in `fields`. */
export function fieldOf(fields: Fields | undefined, name: string): string | undefined {
  return fields?.find(([n]) => n === name)?.[1];
}
