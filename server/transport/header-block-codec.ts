/**
 * HPACK (RFC 7541) header blocks for the client port, through our own strict codec
 * (`hpack/`, whose README lists the rules enforced).
 *
 * Contract:
 * - a decoder holds one connection's decoding context: blocks must be given in the order the
 *   peer sent them; dynamic-table inserts and size updates carry over from block to block;
 *   after a 'malformed' answer (the caller sends COMPRESSION_ERROR) the context is unusable
 *   and the connection must not go on;
 * - with `maxHeaderListBytes`, a block whose decoded list is larger answers 'too-large' after
 *   being fully processed: the context stays usable, the caller may refuse the stream alone;
 * - `encodeFields` never touches a dynamic table (every field is indexed from the static table
 *   or sent as a literal without indexing / never indexed), so the blocks it makes decode the
 *   same with any decoder context and any SETTINGS_HEADER_TABLE_SIZE;
 * - names and values are byte strings (one char per octet), so decode → encode keeps every byte.
 */
import { HpackDecoder } from './hpack/decoder.js';
import type { HeaderField } from './hpack/header-field.js';

export type { HeaderField } from './hpack/header-field.js';
export { encodeFields } from './hpack/encoder.js';

export type DecodeResult =
  | { readonly kind: 'ok'; readonly fields: readonly HeaderField[] }
  | { readonly kind: 'malformed'; readonly reason: string };

/** What a decoder with `maxHeaderListBytes` may also answer. */
export type BoundedDecodeResult = DecodeResult | { readonly kind: 'too-large'; readonly listBytes: number };

export interface HeaderBlockDecoder {
  decode(block: Buffer): DecodeResult;
}

export interface BoundedHeaderBlockDecoder {
  decode(block: Buffer): BoundedDecodeResult;
}

export interface HeaderBlockDecoderOptions {
  /** SETTINGS_HEADER_TABLE_SIZE the server advertised (default 4096, the protocol's initial value). */
  readonly maxTableSize?: number;
  /** Largest decoded header list, RFC 9113 §6.5.2 size (name + value + 32 per field). */
  readonly maxHeaderListBytes?: number;
}

/** SETTINGS_HEADER_TABLE_SIZE's initial value (RFC 9113 §6.5.2). */
const DEFAULT_TABLE_SIZE = 4096;

/** A decoding context for one connection (see the contract). */
export function createHeaderBlockDecoder(options?: { readonly maxTableSize?: number; readonly maxHeaderListBytes?: undefined }): HeaderBlockDecoder;
export function createHeaderBlockDecoder(options: HeaderBlockDecoderOptions): BoundedHeaderBlockDecoder;
export function createHeaderBlockDecoder(options: HeaderBlockDecoderOptions = {}): BoundedHeaderBlockDecoder {
  return new HpackDecoder({
    maxTableSize: options.maxTableSize ?? DEFAULT_TABLE_SIZE,
    maxHeaderListBytes: options.maxHeaderListBytes ?? Infinity,
  });
}

/** The value of the first `name` field, if any. */
export function fieldValue(fields: readonly HeaderField[], name: string): string | undefined {
  return fields.find((f) => f.name === name)?.value;
}
