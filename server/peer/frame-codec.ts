/**
 * The stream framing (see FORMAT.md): every frame is a 5-byte header — type (u8), payload
 * length (u32 big-endian) — followed by the payload. Pure: no I/O, no clock.
 *
 * Encoder contract: `encodeBatch` returns chunks whose concatenation is the frames in order;
 * payloads smaller than `coalesceBelow` are copied into shared chunks (one write for a burst of
 * small frames), larger payloads are passed through uncopied, so a caller must not mutate a
 * frame Buffer until the write completes.
 *
 * Decoder contract: `push` accepts the byte stream in arbitrary chunks and returns the frames
 * completed by that chunk, in order. A returned payload may share memory with a pushed chunk
 * (the transport never reuses those). After an error the decoder must be discarded.
 */

export const FrameType = {
  /** An opaque frame of the transport user. */
  Data: 0x01,
  /** Liveness probe from the dialer; payload echoed back in a Pong. */
  Ping: 0x02,
  /** Answer to a Ping, same payload. */
  Pong: 0x03,
} as const;
export type FrameType = (typeof FrameType)[keyof typeof FrameType];

export const FRAME_HEADER_BYTES = 5;
/** Control frames (Ping, Pong) carry at most this many payload bytes. */
export const MAX_CONTROL_PAYLOAD = 64;

export interface ControlFrame {
  readonly type: typeof FrameType.Ping | typeof FrameType.Pong;
  readonly payload: Buffer;
}

export type DecodeOutcome =
  | { readonly ok: true; readonly data: Buffer[]; readonly control: ControlFrame[] }
  | { readonly ok: false; readonly reason: string };

const EMPTY: DecodeOutcome = { ok: true, data: [], control: [] };

function writeHeader(into: Buffer, at: number, type: FrameType, length: number): void {
  into[at] = type;
  into.writeUInt32BE(length, at + 1);
}

/** One control frame as a single Buffer. */
export function encodeControl(type: ControlFrame['type'], payload: Buffer): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  writeHeader(out, 0, type, payload.length);
  payload.copy(out, FRAME_HEADER_BYTES);
  return out;
}

/** Data frames as write chunks; see the header for copying rules. */
export function encodeBatch(frames: readonly Buffer[], coalesceBelow = 64 * 1024): Buffer[] {
  const chunks: Buffer[] = [];
  let i = 0;
  while (i < frames.length) {
    // A run of small frames, plus the header of the large frame that ends it (if any).
    let size = 0;
    let j = i;
    while (j < frames.length && (frames[j] as Buffer).length < coalesceBelow) {
      size += FRAME_HEADER_BYTES + (frames[j] as Buffer).length;
      j++;
    }
    const large = j < frames.length ? (frames[j] as Buffer) : undefined;
    const run = Buffer.allocUnsafe(size + (large === undefined ? 0 : FRAME_HEADER_BYTES));
    let at = 0;
    for (let k = i; k < j; k++) {
      const f = frames[k] as Buffer;
      writeHeader(run, at, FrameType.Data, f.length);
      f.copy(run, at + FRAME_HEADER_BYTES);
      at += FRAME_HEADER_BYTES + f.length;
    }
    if (large !== undefined) writeHeader(run, at, FrameType.Data, large.length);
    chunks.push(run);
    if (large !== undefined) chunks.push(large);
    i = large === undefined ? j : j + 1;
  }
  return chunks;
}

/** Incremental decoder of one direction of one stream. */
export class FrameDecoder {
  readonly #maxPayload: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Total bytes (header + payload) of the frame being assembled; 0 while its header is incomplete. */
  #need = 0;
  #type: number = 0;

  constructor(maxPayload: number) {
    this.#maxPayload = maxPayload;
  }

  push(chunk: Buffer): DecodeOutcome {
    if (chunk.length === 0) return EMPTY;
    const data: Buffer[] = [];
    const control: ControlFrame[] = [];
    let off = 0;

    if (this.#pendingBytes > 0) {
      if (this.#need === 0) {
        const take = Math.min(FRAME_HEADER_BYTES - this.#pendingBytes, chunk.length);
        this.#stash(chunk.subarray(0, take));
        off = take;
        if (this.#pendingBytes < FRAME_HEADER_BYTES) return EMPTY;
        const head = Buffer.concat(this.#pending, FRAME_HEADER_BYTES);
        const bad = this.#header(head, 0);
        if (bad !== undefined) return { ok: false, reason: bad };
        this.#pending = [head];
      }
      const take = Math.min(this.#need - this.#pendingBytes, chunk.length - off);
      this.#stash(chunk.subarray(off, off + take));
      off += take;
      if (this.#pendingBytes < this.#need) return EMPTY;
      const whole = this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending, this.#need);
      this.#emit(whole.subarray(FRAME_HEADER_BYTES), data, control);
      this.#reset();
    }

    while (chunk.length - off >= FRAME_HEADER_BYTES) {
      const bad = this.#header(chunk, off);
      if (bad !== undefined) return { ok: false, reason: bad };
      if (chunk.length - off < this.#need) break;
      const end = off + this.#need;
      this.#emit(chunk.subarray(off + FRAME_HEADER_BYTES, end), data, control);
      off = end;
      this.#need = 0;
    }
    if (off < chunk.length) this.#stash(chunk.subarray(off));
    else this.#need = 0;
    return { ok: true, data, control };
  }

  /** Bytes of an incomplete frame held back (0 at a frame boundary). */
  get buffered(): number {
    return this.#pendingBytes;
  }

  #stash(part: Buffer): void {
    this.#pending.push(part);
    this.#pendingBytes += part.length;
  }

  #reset(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#need = 0;
  }

  /** Reads a header at `at`, validates it, sets #type and #need; returns an error text or undefined. */
  #header(buf: Buffer, at: number): string | undefined {
    const type = buf[at] as number;
    const length = buf.readUInt32BE(at + 1);
    if (type === FrameType.Data) {
      if (length > this.#maxPayload) return `frame of ${length} bytes exceeds the limit of ${this.#maxPayload}`;
    } else if (type === FrameType.Ping || type === FrameType.Pong) {
      if (length > MAX_CONTROL_PAYLOAD) return `control frame of ${length} bytes`;
    } else {
      return `unknown frame type ${type}`;
    }
    this.#type = type;
    this.#need = FRAME_HEADER_BYTES + length;
    return undefined;
  }

  #emit(payload: Buffer, data: Buffer[], control: ControlFrame[]): void {
    if (this.#type === FrameType.Data) data.push(payload);
    else control.push({ type: this.#type as ControlFrame['type'], payload });
  }
}
