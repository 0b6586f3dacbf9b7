/**
 * Helpers for the transport tests: HTTP/2 frames and HPACK blocks built the way a client
 * would (an `hpack.js` compressor with a dynamic table, so blocks depend on earlier ones), and
 * a reader that splits a byte stream back into frames.
 */
import hpack from 'hpack.js';
import { FRAME_HEADER_LENGTH, encodeFrame, readFrameHeader } from '../../../server/transport/http2-frames.js';
import { HTTP2_PREFACE } from '../../../server/transport/protocol-sniff.js';

export type Fields = readonly (readonly [string, string])[];

/** A client-side HPACK encoder: literals are indexed incrementally (dynamic table in use). */
export function clientEncoder(): (fields: Fields) => Buffer {
  const compressor = hpack.compressor.create({ table: { maxSize: 4096 } });
  return (fields) => {
    compressor.write(fields.map(([name, value]) => ({ name, value })));
    return compressor.read() ?? Buffer.alloc(0);
  };
}

export interface Frame {
  readonly type: number;
  readonly flags: number;
  readonly streamId: number;
  readonly payload: Buffer;
}

export function frame(type: number, flags: number, streamId: number, payload: Buffer | string = Buffer.alloc(0)): Buffer {
  return encodeFrame(type, flags, streamId, typeof payload === 'string' ? Buffer.from(payload) : payload);
}

/** Splits `bytes` (after an optional preface) into complete frames; throws on a partial one. */
export function splitFrames(bytes: Buffer): Frame[] {
  let offset = bytes.subarray(0, HTTP2_PREFACE.length).equals(HTTP2_PREFACE) ? HTTP2_PREFACE.length : 0;
  const frames: Frame[] = [];
  while (offset < bytes.length) {
    const h = readFrameHeader(bytes, offset);
    if (h === undefined || bytes.length - offset < FRAME_HEADER_LENGTH + h.length) throw new Error(`partial frame at ${offset}`);
    frames.push({ type: h.type, flags: h.flags, streamId: h.streamId, payload: bytes.subarray(offset + FRAME_HEADER_LENGTH, offset + FRAME_HEADER_LENGTH + h.length) });
    offset += FRAME_HEADER_LENGTH + h.length;
  }
  return frames;
}

/** A gRPC-like request head with the given authority. */
export function requestFields(authority: string, path = '/etcdserverpb.Maintenance/Status'): Fields {
  return [
    [':method', 'POST'],
    [':scheme', 'http'],
    [':path', path],
    [':authority', authority],
    ['content-type', 'application/grpc'],
    ['user-agent', 'grpc-go/1.26.0'],
    ['te', 'trailers'],
  ];
}
