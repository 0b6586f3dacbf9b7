/**
 * HTTP/2 framing facts (RFC 9113 §4, §6, §7) for the client-port sniffer, the authority relay
 * and our own connection (h2/): frame header parsing, header-block fragment extraction, error
 * codes and setting ids, frame building.
 *
 * Contract: pure, no I/O. Offsets index into the caller's buffer; nothing here copies payloads
 * except `encodeFrame`. A frame is "complete" once its 9-byte header and whole payload are
 * present. Frames are never validated beyond what is needed to find header blocks.
 */

export const FrameType = {
  Data: 0x0,
  Headers: 0x1,
  Priority: 0x2,
  RstStream: 0x3,
  Settings: 0x4,
  PushPromise: 0x5,
  Ping: 0x6,
  GoAway: 0x7,
  WindowUpdate: 0x8,
  Continuation: 0x9,
} as const;

export const FrameFlag = {
  Ack: 0x1,
  EndStream: 0x1,
  EndHeaders: 0x4,
  Padded: 0x8,
  Priority: 0x20,
} as const;

/** Error codes (RFC 9113 §7). */
export const H2Error = {
  NoError: 0x0,
  ProtocolError: 0x1,
  InternalError: 0x2,
  FlowControlError: 0x3,
  StreamClosed: 0x5,
  FrameSizeError: 0x6,
  RefusedStream: 0x7,
  Cancel: 0x8,
  CompressionError: 0x9,
  EnhanceYourCalm: 0xb,
} as const;

/** SETTINGS parameter ids (RFC 9113 §6.5.2). */
export const SettingId = { HeaderTableSize: 1, EnablePush: 2, MaxConcurrentStreams: 3, InitialWindowSize: 4, MaxFrameSize: 5, MaxHeaderListSize: 6 } as const;

export const FRAME_HEADER_LENGTH = 9;
/** SETTINGS_MAX_FRAME_SIZE's initial value: no peer may send a bigger frame before agreeing to it. */
export const DEFAULT_MAX_FRAME_SIZE = 16_384;

export interface FrameHeader {
  readonly length: number;
  readonly type: number;
  readonly flags: number;
  readonly streamId: number;
}

/** The frame header at `offset`, or undefined when fewer than 9 bytes are there. */
export function readFrameHeader(bytes: Buffer, offset: number): FrameHeader | undefined {
  if (bytes.length - offset < FRAME_HEADER_LENGTH) return undefined;
  return {
    length: bytes.readUIntBE(offset, 3),
    type: bytes[offset + 3],
    flags: bytes[offset + 4],
    streamId: bytes.readUInt32BE(offset + 5) & 0x7fff_ffff,
  };
}

/** True when the whole frame starting at `offset` (header and payload) is in `bytes`. */
export function frameComplete(bytes: Buffer, offset: number, header: FrameHeader): boolean {
  return bytes.length - offset >= FRAME_HEADER_LENGTH + header.length;
}

export type FragmentResult =
  | { readonly kind: 'ok'; readonly fragment: Buffer; readonly priority: Buffer | undefined }
  | { readonly kind: 'malformed'; readonly reason: string };

/**
 * The header-block fragment of a HEADERS or CONTINUATION frame `payload`: padding (PADDED) is
 * dropped, the 5 priority bytes of a HEADERS frame with PRIORITY are returned apart.
 */
export function headerBlockFragment(type: number, flags: number, payload: Buffer): FragmentResult {
  if (type === FrameType.Continuation) return { kind: 'ok', fragment: payload, priority: undefined };
  let start = 0;
  let end = payload.length;
  if (flags & FrameFlag.Padded) {
    if (payload.length < 1) return { kind: 'malformed', reason: 'PADDED HEADERS frame without pad length' };
    start = 1;
    end -= payload[0];
  }
  let priority: Buffer | undefined;
  if (flags & FrameFlag.Priority) {
    priority = payload.subarray(start, start + 5);
    start += 5;
  }
  if (end < start) return { kind: 'malformed', reason: 'HEADERS padding longer than the frame' };
  return { kind: 'ok', fragment: payload.subarray(start, end), priority };
}

/** A frame's 9-byte header alone (the payload is written after it, e.g. without copying). */
export function frameHeader(type: number, flags: number, streamId: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER_LENGTH);
  out.writeUIntBE(length, 0, 3);
  out[3] = type;
  out[4] = flags;
  out.writeUInt32BE(streamId & 0x7fff_ffff, 5);
  return out;
}

/** One frame: the 9-byte header followed by `payload`. */
export function encodeFrame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER_LENGTH + payload.length);
  frameHeader(type, flags, streamId, payload.length).copy(out, 0);
  payload.copy(out, FRAME_HEADER_LENGTH);
  return out;
}

/** A SETTINGS frame with `entries` ([id, value] each). */
export function settingsFrame(entries: readonly (readonly [number, number])[]): Buffer {
  const payload = Buffer.allocUnsafe(6 * entries.length);
  entries.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, 6 * i);
    payload.writeUInt32BE(value, 6 * i + 2);
  });
  return encodeFrame(FrameType.Settings, 0, 0, payload);
}

export function windowUpdateFrame(streamId: number, increment: number): Buffer {
  const p = Buffer.allocUnsafe(4);
  p.writeUInt32BE(increment, 0);
  return encodeFrame(FrameType.WindowUpdate, 0, streamId, p);
}

export function rstStreamFrame(streamId: number, code: number): Buffer {
  const p = Buffer.allocUnsafe(4);
  p.writeUInt32BE(code, 0);
  return encodeFrame(FrameType.RstStream, 0, streamId, p);
}

/** GOAWAY naming the last stream processed, an error code and a debug text. */
export function goAwayFrame(lastStreamId: number, code: number, debug = ''): Buffer {
  const text = Buffer.from(debug, 'utf8');
  const p = Buffer.allocUnsafe(8 + text.length);
  p.writeUInt32BE(lastStreamId, 0);
  p.writeUInt32BE(code, 4);
  text.copy(p, 8);
  return encodeFrame(FrameType.GoAway, 0, 0, p);
}

/**
 * A header block as one HEADERS frame followed by as many CONTINUATION frames as needed for
 * `maxFrameSize`. `flags` keeps END_STREAM (and PRIORITY when `priority` is given); PADDED is
 * never set, END_HEADERS goes on the last frame.
 */
export function encodeHeaderBlock(
  streamId: number,
  flags: number,
  priority: Buffer | undefined,
  block: Buffer,
  maxFrameSize: number = DEFAULT_MAX_FRAME_SIZE,
): Buffer[] {
  const prefix = priority ?? Buffer.alloc(0);
  const firstRoom = maxFrameSize - prefix.length;
  const first = block.subarray(0, firstRoom);
  const baseFlags = (flags & FrameFlag.EndStream) | (priority !== undefined ? FrameFlag.Priority : 0);
  const frames: Buffer[] = [];
  let rest = block.subarray(first.length);
  frames.push(encodeFrame(FrameType.Headers, baseFlags | (rest.length === 0 ? FrameFlag.EndHeaders : 0), streamId, Buffer.concat([prefix, first])));
  while (rest.length > 0) {
    const part = rest.subarray(0, maxFrameSize);
    rest = rest.subarray(part.length);
    frames.push(encodeFrame(FrameType.Continuation, rest.length === 0 ? FrameFlag.EndHeaders : 0, streamId, part));
  }
  return frames;
}

/** An empty SETTINGS frame: "all settings at their initial values". */
export const EMPTY_SETTINGS: Buffer = encodeFrame(FrameType.Settings, 0, 0, Buffer.alloc(0));
