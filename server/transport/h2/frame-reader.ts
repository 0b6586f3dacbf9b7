/**
 * Splits the bytes a client sends into frames: first the 24-byte connection preface (RFC 9113
 * §3.4), then 9-byte headers and their payloads (§4.1), across chunks.
 *
 * Contract:
 * - `push(chunk, onFrame)` calls `onFrame` for every complete frame, in order, while `more()`
 *   answers true; bytes of an incomplete frame are kept for the next chunk (copied out of the
 *   chunk once, so a payload handed to `onFrame` stays valid after `push` returns);
 * - throws `H2ConnectionError` PROTOCOL_ERROR when the bytes are not the preface, and
 *   FRAME_SIZE_ERROR as soon as a frame header announces more than `maxFrameSize` (our
 *   SETTINGS_MAX_FRAME_SIZE) — before its payload is buffered; what `onFrame` throws passes.
 */
import { H2ConnectionError } from './connection-error.js';
import { FRAME_HEADER_LENGTH, H2Error } from '../http2-frames.js';
import { HTTP2_PREFACE } from '../protocol-sniff.js';

export type OnFrame = (type: number, flags: number, streamId: number, payload: Buffer) => void;

export class FrameReader {
  #input: Buffer = Buffer.alloc(0);
  #prefaceSeen = false;

  constructor(private readonly maxFrameSize: number) {}

  push(chunk: Buffer, onFrame: OnFrame, more: () => boolean): void {
    const input = this.#input.length === 0 ? chunk : Buffer.concat([this.#input, chunk]);
    let at = 0;
    if (!this.#prefaceSeen) {
      const n = Math.min(input.length, HTTP2_PREFACE.length);
      if (!input.subarray(0, n).equals(HTTP2_PREFACE.subarray(0, n))) throw new H2ConnectionError(H2Error.ProtocolError, 'not an HTTP/2 client preface');
      if (n < HTTP2_PREFACE.length) {
        this.#input = input;
        return;
      }
      this.#prefaceSeen = true;
      at = HTTP2_PREFACE.length;
    }
    while (input.length - at >= FRAME_HEADER_LENGTH && more()) {
      const length = input.readUIntBE(at, 3);
      if (length > this.maxFrameSize) throw new H2ConnectionError(H2Error.FrameSizeError, `frame of ${length} bytes over the ${this.maxFrameSize} allowed`);
      if (input.length - at < FRAME_HEADER_LENGTH + length) break;
      const type = input[at + 3]!;
      const flags = input[at + 4]!;
      const id = input.readUInt32BE(at + 5) & 0x7fff_ffff;
      const payload = input.subarray(at + FRAME_HEADER_LENGTH, at + FRAME_HEADER_LENGTH + length);
      at += FRAME_HEADER_LENGTH + length;
      onFrame(type, flags, id, payload);
    }
    this.#input = at >= input.length ? Buffer.alloc(0) : at > 0 ? Buffer.from(input.subarray(at)) : input;
  }
}
