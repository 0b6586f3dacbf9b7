/**
 * HTTP/2 frames as bytes (RFC 9113 §4.1), built by hand so a test can send anything: any type,
 * flags, stream id (the reserved bit included) and payload, padding, and a length field that
 * lies about the payload. `FrameReader` splits what a server sends back into frames.
 *
 * Contract: pure (no I/O); every builder returns a fresh Buffer.
 */

/** RFC 9113 §6 frame types, and an unknown one (§5.5: must be ignored). */
export const FrameType = {
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9,
  UNKNOWN: 0xbe,
} as const;

export const Flag = {
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
} as const;

/** RFC 9113 §7 error codes. */
export const ErrorCode = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  INTERNAL_ERROR: 0x2,
  FLOW_CONTROL_ERROR: 0x3,
  SETTINGS_TIMEOUT: 0x4,
  STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
  CONNECT_ERROR: 0xa,
  ENHANCE_YOUR_CALM: 0xb,
  INADEQUATE_SECURITY: 0xc,
  HTTP_1_1_REQUIRED: 0xd,
} as const;

export const Setting = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
} as const;

export const PREFACE: Buffer = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
export const FRAME_HEADER_LENGTH = 9;
export const DEFAULT_MAX_FRAME_SIZE = 16_384;

const TYPE_NAMES = new Map<number, string>(Object.entries(FrameType).map(([k, v]) => [v, k]));
const CODE_NAMES = new Map<number, string>(Object.entries(ErrorCode).map(([k, v]) => [v, k]));

export function typeName(type: number): string {
  return TYPE_NAMES.get(type) ?? `type 0x${type.toString(16)}`;
}

export function codeName(code: number): string {
  return CODE_NAMES.get(code) ?? `code 0x${code.toString(16)}`;
}

/** A frame as received (or as a fuzz script holds it). */
export interface Frame {
  readonly type: number;
  readonly flags: number;
  readonly streamId: number;
  readonly payload: Buffer;
}

export interface FrameOptions {
  /** Written in the length field instead of the payload's real length. */
  readonly length?: number;
  /** Sets the reserved bit of the stream id. */
  readonly reservedBit?: boolean;
}

/** One frame: the 9-byte header and the payload. */
export function frame(type: number, flags: number, streamId: number, payload: Buffer | Uint8Array = Buffer.alloc(0), opts: FrameOptions = {}): Buffer {
  const head = Buffer.alloc(FRAME_HEADER_LENGTH);
  head.writeUIntBE(opts.length ?? payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(((streamId & 0x7fff_ffff) | (opts.reservedBit === true ? 0x8000_0000 : 0)) >>> 0, 5);
  return Buffer.concat([head, payload]);
}

/** A padded payload (RFC 9113 §6.1): pad length octet, `body`, `padLength` zero octets. */
export function padded(body: Buffer, padLength: number, padOctet = padLength): Buffer {
  return Buffer.concat([Buffer.from([padOctet & 0xff]), body, Buffer.alloc(padLength)]);
}

/** The 5 octets of a priority block (§6.3): exclusive bit + dependency, weight - 1. */
export function priorityBlock(dependsOn: number, weight = 16, exclusive = false): Buffer {
  const b = Buffer.alloc(5);
  b.writeUInt32BE(((dependsOn & 0x7fff_ffff) | (exclusive ? 0x8000_0000 : 0)) >>> 0, 0);
  b[4] = (weight - 1) & 0xff;
  return b;
}

export function settingsPayload(settings: readonly (readonly [number, number])[]): Buffer {
  const b = Buffer.alloc(settings.length * 6);
  settings.forEach(([id, value], i) => {
    b.writeUInt16BE(id, i * 6);
    b.writeUInt32BE(value >>> 0, i * 6 + 2);
  });
  return b;
}

export function settingsFrame(settings: readonly (readonly [number, number])[] = []): Buffer {
  return frame(FrameType.SETTINGS, 0, 0, settingsPayload(settings));
}

export function settingsAck(): Buffer {
  return frame(FrameType.SETTINGS, Flag.ACK, 0);
}

export function u32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value >>> 0, 0);
  return b;
}

export function rstStream(streamId: number, code: number): Buffer {
  return frame(FrameType.RST_STREAM, 0, streamId, u32(code));
}

export function windowUpdate(streamId: number, increment: number): Buffer {
  return frame(FrameType.WINDOW_UPDATE, 0, streamId, u32(increment));
}

export function ping(opaque: Buffer, ack = false): Buffer {
  return frame(FrameType.PING, ack ? Flag.ACK : 0, 0, opaque);
}

export function goaway(lastStreamId: number, code: number, debug = ''): Buffer {
  return frame(FrameType.GOAWAY, 0, 0, Buffer.concat([u32(lastStreamId), u32(code), Buffer.from(debug)]));
}

/** Incremental frame parser: `push` bytes, get back the frames they complete. */
export class FrameReader {
  #pending: Buffer = Buffer.alloc(0);

  push(bytes: Buffer): Frame[] {
    this.#pending = this.#pending.length === 0 ? bytes : Buffer.concat([this.#pending, bytes]);
    const out: Frame[] = [];
    let offset = 0;
    while (this.#pending.length - offset >= FRAME_HEADER_LENGTH) {
      const length = this.#pending.readUIntBE(offset, 3);
      if (this.#pending.length - offset < FRAME_HEADER_LENGTH + length) break;
      out.push({
        type: this.#pending[offset + 3],
        flags: this.#pending[offset + 4],
        streamId: this.#pending.readUInt32BE(offset + 5) & 0x7fff_ffff,
        payload: Buffer.from(this.#pending.subarray(offset + FRAME_HEADER_LENGTH, offset + FRAME_HEADER_LENGTH + length)),
      });
      offset += FRAME_HEADER_LENGTH + length;
    }
    this.#pending = this.#pending.subarray(offset);
    return out;
  }

  /** Bytes received that do not (yet) make a whole frame. */
  get pending(): Buffer {
    return this.#pending;
  }
}

/** One line per frame, for failure messages. */
export function describeFrame(f: Frame): string {
  let detail: string;
  if (f.type === FrameType.GOAWAY && f.payload.length >= 8) {
    detail = ` last=${f.payload.readUInt32BE(0) & 0x7fff_ffff} ${codeName(f.payload.readUInt32BE(4))} "${f.payload.subarray(8).toString('latin1').slice(0, 120)}"`;
  } else if (f.type === FrameType.RST_STREAM && f.payload.length === 4) {
    detail = ` ${codeName(f.payload.readUInt32BE(0))}`;
  } else if (f.type === FrameType.WINDOW_UPDATE && f.payload.length === 4) {
    detail = ` +${f.payload.readUInt32BE(0)}`;
  } else if (f.type === FrameType.SETTINGS) {
    const pairs: string[] = [];
    for (let i = 0; i + 6 <= f.payload.length; i += 6) pairs.push(`${f.payload.readUInt16BE(i)}=${f.payload.readUInt32BE(i + 2)}`);
    detail = ` [${pairs.join(' ')}]`;
  } else {
    detail = ` len=${f.payload.length}`;
  }
  return `${typeName(f.type)} flags=0x${f.flags.toString(16)} stream=${f.streamId}${detail}`;
}
