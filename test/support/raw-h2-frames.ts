/**
 * HTTP/2 frames (RFC 9113 §4.1, §6) written by hand, for tests that must control exactly which
 * frames a server receives and in which TCP/TLS write: the client preface, SETTINGS, HEADERS
 * (HPACK through `hpack.js`, literals never added to a dynamic table, so every block stands
 * alone), DATA and RST_STREAM, and the gRPC length-prefixed message a DATA frame carries.
 * Nothing here reads from a socket.
 */
import { gzipSync } from 'node:zlib';
import hpack from 'hpack.js';

/** The connection preface a client sends first (RFC 9113 §3.4). */
export const CLIENT_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

const FrameType = { data: 0x0, headers: 0x1, rstStream: 0x3, settings: 0x4 } as const;
const Flag = { endStream: 0x1, endHeaders: 0x4 } as const;

/** RST_STREAM error codes used by the tests (RFC 9113 §7). */
export const H2Code = { noError: 0x0, cancel: 0x8 } as const;

function frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head.writeUInt8(type, 3);
  head.writeUInt8(flags, 4);
  head.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

/** An empty SETTINGS frame (the client's side of the preface). */
export function settingsFrame(): Buffer {
  return frame(FrameType.settings, 0, 0, Buffer.alloc(0));
}

/** SETTINGS with ACK: acknowledges the peer's SETTINGS. */
export function settingsAckFrame(): Buffer {
  return frame(FrameType.settings, 0x1, 0, Buffer.alloc(0));
}

/** One header field; names must be lower case (RFC 9113 §8.2.1). */
export interface Field {
  readonly name: string;
  readonly value: string;
}

/** A HEADERS frame holding the whole block (END_HEADERS), with END_STREAM when `endStream`. */
export function headersFrame(streamId: number, fields: readonly Field[], endStream = false): Buffer {
  const compressor = hpack.compressor.create({ table: { maxSize: 0 } });
  compressor.write(fields.map((f) => ({ name: f.name, value: f.value, incremental: false, huffman: false })));
  const block = compressor.read() ?? Buffer.alloc(0);
  return frame(FrameType.headers, Flag.endHeaders | (endStream ? Flag.endStream : 0), streamId, block);
}

/** A DATA frame, with END_STREAM when `endStream`. */
export function dataFrame(streamId: number, payload: Buffer, endStream = false): Buffer {
  return frame(FrameType.data, endStream ? Flag.endStream : 0, streamId, payload);
}

/** RST_STREAM with `code` (CANCEL unless given). */
export function rstStreamFrame(streamId: number, code: number = H2Code.cancel): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(code, 0);
  return frame(FrameType.rstStream, 0, streamId, payload);
}

/** One gRPC length-prefixed message (gRPC over HTTP/2, "Length-Prefixed-Message"); gzip-compressed when `gzip`. */
export function grpcMessage(protobuf: Buffer, gzip = false): Buffer {
  const body = gzip ? gzipSync(protobuf) : protobuf;
  const prefix = Buffer.alloc(5);
  prefix.writeUInt8(gzip ? 1 : 0, 0);
  prefix.writeUInt32BE(body.length, 1);
  return Buffer.concat([prefix, body]);
}
