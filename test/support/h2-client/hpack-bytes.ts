/**
 * HPACK (RFC 7541) header blocks made by hand, for requests a library encoder would refuse to
 * make: every representation (§6), integers with any prefix (§5.1), raw or Huffman strings
 * (§5.2), table size updates anywhere, and the broken Huffman strings of §5.2.
 *
 * Contract: pure; names and values are byte strings (latin1), never lower-cased or checked.
 */

export type Fields = readonly (readonly [string, string])[];

/** §5.1: `value` with an N-bit prefix; `high` holds the representation's pattern bits. */
export function hpackInt(value: number, prefixBits: number, high = 0): Buffer {
  const max = (1 << prefixBits) - 1;
  if (value < max) return Buffer.from([high | value]);
  const out = [high | max];
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Buffer.from(out);
}

/** §5.2 string literal, sent raw (H = 0). */
export function rawString(text: string | Buffer): Buffer {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
  return Buffer.concat([hpackInt(bytes.length, 7), bytes]);
}

/** §5.2 string literal with H = 1 and the given (already Huffman-coded, or broken) octets. */
export function huffmanString(coded: Buffer): Buffer {
  return Buffer.concat([hpackInt(coded.length, 7, 0x80), coded]);
}

/** §6.1 indexed header field. */
export function indexed(index: number): Buffer {
  return hpackInt(index, 7, 0x80);
}

/** §6.2.2 literal without indexing, new name (raw strings). */
export function literal(name: string, value: string): Buffer {
  return Buffer.concat([Buffer.from([0x00]), rawString(name), rawString(value)]);
}

/** §6.2.2 literal without indexing, name from the table at `nameIndex`. */
export function literalIndexedName(nameIndex: number, value: string | Buffer): Buffer {
  return Buffer.concat([hpackInt(nameIndex, 4, 0x00), rawString(value)]);
}

/** §6.2.1 literal with incremental indexing, new name. */
export function literalIndexing(name: string, value: string): Buffer {
  return Buffer.concat([Buffer.from([0x40]), rawString(name), rawString(value)]);
}

/** §6.3 dynamic table size update. */
export function tableSizeUpdate(size: number): Buffer {
  return hpackInt(size, 5, 0x20);
}

/** A whole block of literals without indexing: no table, no Huffman — every byte as given. */
export function literalBlock(fields: Fields): Buffer {
  return Buffer.concat(fields.map(([n, v]) => literal(n, v)));
}

/**
 * Broken Huffman strings (§5.2), each of them a decoding error:
 * - `longPadding`: 'a' (00011) then 11 one-bits — padding longer than 7 bits;
 * - `zeroPadding`: 'a' then 000 — padding that is not the EOS prefix;
 * - `eos`: 32 one-bits — the EOS symbol (30 ones) inside the string.
 */
export const BadHuffman = {
  longPadding: Buffer.from([0x1f, 0xff]),
  zeroPadding: Buffer.from([0x18]),
  eos: Buffer.from([0xff, 0xff, 0xff, 0xff]),
} as const;

/** A correctly Huffman-coded "a" (00011 + 111 padding), to show the decoder takes good ones. */
export const GOOD_HUFFMAN_A: Buffer = Buffer.from([0x1f]);
