/**
 * HPACK (RFC 7541) header blocks, through the `hpack.js` package.
 *
 * Contract:
 * - a decoder holds one connection's decoding context: blocks must be given in the order the
 *   peer sent them; dynamic-table inserts and size updates carry over from block to block;
 *   after a 'malformed' answer the context is unusable (the connection must not go on);
 * - `encodeFields` never touches a dynamic table (every field is indexed from the static table
 *   or sent as a literal without indexing), so the blocks it makes decode the same with any
 *   decoder context and any SETTINGS_HEADER_TABLE_SIZE;
 * - names and values are byte strings (one char per octet), so decode → encode keeps every byte.
 */
import hpack from 'hpack.js';

export interface HeaderField {
  readonly name: string;
  readonly value: string;
  /** Sent as "literal never indexed" (RFC 7541 §6.2.3): kept so on re-encoding. */
  readonly neverIndex: boolean;
}

export type DecodeResult =
  | { readonly kind: 'ok'; readonly fields: readonly HeaderField[] }
  | { readonly kind: 'malformed'; readonly reason: string };

export interface HeaderBlockDecoder {
  decode(block: Buffer): DecodeResult;
}

/**
 * Generous bound for dynamic-table size updates: a client may only ask for what the server
 * advertised (4096 by default); anything up to this bound is decoded rather than refused.
 */
const MAX_DECODER_TABLE_SIZE = 1 << 20;

export function createHeaderBlockDecoder(): HeaderBlockDecoder {
  const decompressor = hpack.decompressor.create({ table: { maxSize: MAX_DECODER_TABLE_SIZE } });
  let failure: Error | undefined;
  decompressor.on('error', (err: Error) => {
    failure ??= err;
  });
  return {
    decode(block) {
      if (failure !== undefined) return { kind: 'malformed', reason: `HPACK context broken: ${failure.message}` };
      decompressor.write(block);
      decompressor.execute();
      const fields: HeaderField[] = [];
      for (let h = decompressor.read(); h !== null; h = decompressor.read()) {
        fields.push({ name: h.name, value: h.value, neverIndex: h.neverIndex === true });
      }
      if (failure !== undefined) return { kind: 'malformed', reason: `HPACK: ${(failure as Error).message}` };
      return { kind: 'ok', fields };
    },
  };
}

/** `fields` as one header block, independent of any dynamic table (see the contract). */
export function encodeFields(fields: readonly HeaderField[]): Buffer {
  if (fields.length === 0) return Buffer.alloc(0);
  const compressor = hpack.compressor.create({ table: { maxSize: 0 } });
  compressor.write(fields.map((f) => ({ name: f.name, value: f.value, neverIndex: f.neverIndex, incremental: false })));
  return compressor.read() ?? Buffer.alloc(0);
}

/** The value of the first `name` field, if any. */
export function fieldValue(fields: readonly HeaderField[], name: string): string | undefined {
  return fields.find((f) => f.name === name)?.value;
}
