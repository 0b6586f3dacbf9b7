/**
 * Gathers a client's header blocks: a HEADERS frame and the CONTINUATION frames that follow it
 * (RFC 9113 §4.3, §6.2, §6.10), with padding and the priority fields taken out.
 *
 * Contract: `frame` takes every HEADERS and CONTINUATION frame in order and answers the block
 * once END_HEADERS closes it. Throws `H2ConnectionError`:
 * - PROTOCOL_ERROR for HEADERS on stream 0 or an even stream, padding longer than the frame,
 *   CONTINUATION with no block open or on another stream (the caller refuses any other frame
 *   while `open`, RFC 9113 §6.10);
 * - ENHANCE_YOUR_CALM when a block passes `maxBlockBytes` encoded bytes or `MAX_BLOCK_FRAMES`
 *   frames: endless CONTINUATION frames are cut before memory grows (the block is never
 *   decoded, so the connection cannot go on either way).
 * `emptyFragment` flags a frame that brought nothing and did not end its block (for the
 * caller's empty-frame bound).
 */
import { H2ConnectionError } from './connection-error.js';
import { FrameFlag, FrameType, H2Error, headerBlockFragment } from '../http2-frames.js';

/** Frames one header block may span: 16 at the default frame size for a 256 KiB block. */
export const MAX_BLOCK_FRAMES = 128;

export interface HeaderBlock {
  readonly streamId: number;
  /** The HEADERS frame's flags (END_STREAM). */
  readonly flags: number;
  /** The HEADERS frame's priority fields name the stream itself as its dependency. */
  readonly dependsOnSelf: boolean;
  readonly bytes: Buffer;
}

export interface BlockFrame {
  readonly block: HeaderBlock | undefined;
  readonly emptyFragment: boolean;
}

interface Gathering {
  readonly streamId: number;
  readonly flags: number;
  readonly dependsOnSelf: boolean;
  readonly parts: Buffer[];
  bytes: number;
}

export class HeaderBlocks {
  #gathering: Gathering | undefined;

  constructor(private readonly maxBlockBytes: number) {}

  /** A block is open: only CONTINUATION frames on its stream may come. */
  get open(): boolean {
    return this.#gathering !== undefined;
  }

  frame(type: number, flags: number, streamId: number, payload: Buffer): BlockFrame {
    const endHeaders = (flags & FrameFlag.EndHeaders) !== 0;
    let g = this.#gathering;
    let fragment: Buffer;
    if (type === FrameType.Headers) {
      if (streamId === 0 || (streamId & 1) === 0) throw new H2ConnectionError(H2Error.ProtocolError, `HEADERS on stream ${streamId}`);
      const part = headerBlockFragment(type, flags, payload);
      if (part.kind === 'malformed') throw new H2ConnectionError(H2Error.ProtocolError, part.reason);
      fragment = part.fragment;
      const dependsOnSelf = part.priority !== undefined && (part.priority.readUInt32BE(0) & 0x7fff_ffff) === streamId;
      if (endHeaders) return { block: { streamId, flags, dependsOnSelf, bytes: fragment }, emptyFragment: false };
      g = this.#gathering = { streamId, flags, dependsOnSelf, parts: [], bytes: 0 };
    } else {
      if (g === undefined) throw new H2ConnectionError(H2Error.ProtocolError, 'CONTINUATION without a header block');
      if (streamId !== g.streamId) throw new H2ConnectionError(H2Error.ProtocolError, `CONTINUATION on stream ${streamId} inside a block of stream ${g.streamId}`);
      fragment = payload;
    }
    if (g.bytes + fragment.length > this.maxBlockBytes) throw new H2ConnectionError(H2Error.EnhanceYourCalm, `header block over ${this.maxBlockBytes} bytes`);
    if (g.parts.length >= MAX_BLOCK_FRAMES) throw new H2ConnectionError(H2Error.EnhanceYourCalm, `header block over ${MAX_BLOCK_FRAMES} frames`);
    g.parts.push(Buffer.from(fragment));
    g.bytes += fragment.length;
    if (!endHeaders) return { block: undefined, emptyFragment: fragment.length === 0 };
    this.#gathering = undefined;
    return { block: { streamId: g.streamId, flags: g.flags, dependsOnSelf: g.dependsOnSelf, bytes: Buffer.concat(g.parts, g.bytes) }, emptyFragment: false };
  }
}
