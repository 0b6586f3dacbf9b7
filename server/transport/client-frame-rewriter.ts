/**
 * Rewrites the client→server bytes of one HTTP/2 connection so that every request's
 * `:authority` is one the server's HTTP/2 layer accepts (see authority.ts).
 *
 * Contract:
 * - input is the connection's byte stream from its first byte (the 24-byte preface), in any
 *   chunking; `push` returns the bytes to give the server so far (possibly empty);
 * - every header block (HEADERS + CONTINUATION…, PADDED and PRIORITY respected) is decoded with
 *   the connection's own HPACK context and re-encoded without dynamic table (the server's
 *   decoder then needs no shared state with the client's encoder); fields keep their order and
 *   bytes, except `:authority` / `host` values nghttp2 refuses: repaired or, failing that, left
 *   out. Re-encoded blocks are sent unpadded, as HEADERS + CONTINUATION frames of ≤ 16 KiB;
 * - with `swallowSettingsAck`, the client's first SETTINGS ACK is not forwarded (it answers a
 *   SETTINGS the listener sent on the server's behalf, see h2-opening.ts);
 * - every other frame passes through unchanged, byte for byte;
 * - on anything malformed (a broken header block or HPACK data, a frame interleaved in a header
 *   block) the rest of the stream, from the offending frame on, passes through untouched and
 *   `malformed` says why: the server then fails the connection itself.
 */
import { acceptedAuthority, repairAuthority } from './authority.js';
import {
  FRAME_HEADER_LENGTH, FrameFlag, FrameType, encodeHeaderBlock, frameComplete, headerBlockFragment, readFrameHeader,
} from './http2-frames.js';
import { HTTP2_PREFACE } from './protocol-sniff.js';
import { createHeaderBlockDecoder, encodeFields, type HeaderField } from './header-block-codec.js';

export interface AuthorityChange {
  readonly streamId: number;
  readonly from: string;
  readonly to: string | undefined;
}

export interface ClientFrameRewriter {
  push(chunk: Buffer): Buffer;
  /** Why the stream is now passed through untouched, if it is. */
  readonly malformed: string | undefined;
}

export interface RewriterOptions {
  readonly swallowSettingsAck: boolean;
  /** Called for each refused `:authority` / `host` value met. */
  readonly onChange?: (change: AuthorityChange) => void;
}

interface OpenBlock {
  readonly streamId: number;
  readonly flags: number;
  readonly priority: Buffer | undefined;
  readonly fragments: Buffer[];
  /** The original frames, forwarded as they were if the block turns out malformed. */
  readonly raw: Buffer[];
}

const AUTHORITY_FIELDS = new Set([':authority', 'host']);

export function createClientFrameRewriter(options: RewriterOptions): ClientFrameRewriter {
  const decoder = createHeaderBlockDecoder();
  let pending: Buffer = Buffer.alloc(0);
  let prefaceLeft = HTTP2_PREFACE.length;
  let ackToSwallow = options.swallowSettingsAck;
  let block: OpenBlock | undefined;
  let malformed: string | undefined;

  const repairFields = (streamId: number, fields: readonly HeaderField[]): HeaderField[] => {
    const out: HeaderField[] = [];
    for (const f of fields) {
      if (!AUTHORITY_FIELDS.has(f.name) || acceptedAuthority(f.value)) {
        out.push(f);
        continue;
      }
      const to = repairAuthority(f.value);
      options.onChange?.({ streamId, from: f.value, to });
      if (to !== undefined) out.push({ ...f, value: to });
    }
    return out;
  };

  /** Frames for a complete block, or undefined when it is malformed (then `malformed` is set). */
  const finishBlock = (b: OpenBlock): Buffer[] | undefined => {
    const decoded = decoder.decode(Buffer.concat(b.fragments));
    if (decoded.kind === 'malformed') {
      malformed = decoded.reason;
      return undefined;
    }
    const fields = repairFields(b.streamId, decoded.fields);
    return encodeHeaderBlock(b.streamId, b.flags, b.priority, encodeFields(fields));
  };

  const push = (chunk: Buffer): Buffer => {
    if (malformed !== undefined) return chunk;
    const out: Buffer[] = [];
    let bytes = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    if (prefaceLeft > 0) {
      const n = Math.min(prefaceLeft, bytes.length);
      out.push(bytes.subarray(0, n));
      prefaceLeft -= n;
      bytes = bytes.subarray(n);
    }
    let offset = 0;
    for (;;) {
      const header = readFrameHeader(bytes, offset);
      if (header === undefined || !frameComplete(bytes, offset, header)) break;
      const end = offset + FRAME_HEADER_LENGTH + header.length;
      const frame = bytes.subarray(offset, end);
      const payload = bytes.subarray(offset + FRAME_HEADER_LENGTH, end);
      offset = end;
      const isHeaders = header.type === FrameType.Headers;
      const isContinuation = header.type === FrameType.Continuation;
      if (block !== undefined && !(isContinuation && header.streamId === block.streamId)) {
        malformed = 'a frame other than CONTINUATION inside a header block';
        out.push(...block.raw, frame, bytes.subarray(offset));
        pending = Buffer.alloc(0);
        return Buffer.concat(out);
      }
      if (!isHeaders && !isContinuation) {
        if (ackToSwallow && header.type === FrameType.Settings && (header.flags & FrameFlag.Ack) !== 0) {
          ackToSwallow = false;
          continue;
        }
        out.push(frame);
        continue;
      }
      const part = headerBlockFragment(header.type, header.flags, payload);
      if (part.kind === 'malformed' || (isContinuation && block === undefined)) {
        malformed = part.kind === 'malformed' ? part.reason : 'CONTINUATION outside a header block';
        out.push(...(block?.raw ?? []), frame, bytes.subarray(offset));
        pending = Buffer.alloc(0);
        return Buffer.concat(out);
      }
      const open: OpenBlock = block ?? { streamId: header.streamId, flags: header.flags, priority: part.priority, fragments: [], raw: [] };
      open.fragments.push(part.fragment);
      open.raw.push(frame);
      if ((header.flags & FrameFlag.EndHeaders) === 0) {
        block = open;
        continue;
      }
      block = undefined;
      const frames = finishBlock(open);
      if (frames === undefined) {
        out.push(...open.raw, bytes.subarray(offset));
        pending = Buffer.alloc(0);
        return Buffer.concat(out);
      }
      out.push(...frames);
    }
    // Keep the unparsed tail; copy it so the caller's chunk can be reused.
    pending = Buffer.from(bytes.subarray(offset));
    return out.length === 1 ? out[0] : Buffer.concat(out);
  };

  return {
    push,
    get malformed() {
      return malformed;
    },
  };
}
