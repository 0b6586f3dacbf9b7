/**
 * HPACK Huffman strings (RFC 7541 §5.2): decoding with the 4-bit automaton of
 * `huffman-machine.ts`, encoding with the code table. Strings are byte strings (one char per
 * octet); encoding reads `charCodeAt(i) & 0xff`, so callers pass latin1 strings only.
 */
import { END_CHECK, EndCheck, HUFFMAN_STEPS, STEP_EMITS, STEP_FAILS } from './huffman-machine.js';
import { HUFFMAN_CODES, HUFFMAN_LENGTHS } from './huffman-table.js';

/** Why a Huffman string was refused (RFC 7541 §5.2). */
export const HuffmanError = { Eos: -1, PaddingTooLong: -2, PaddingNotOnes: -3 } as const;
export type HuffmanError = (typeof HuffmanError)[keyof typeof HuffmanError];

/** Octets a decoded string may need for `encodedLength` octets (the shortest code is 5 bits). */
export function huffmanDecodedBound(encodedLength: number): number {
  return Math.ceil((encodedLength * 8) / 5);
}

/**
 * Decodes `src[start, end)` into `out` from offset 0; `out` must hold
 * `huffmanDecodedBound(end - start)` octets. Returns the decoded length, or a `HuffmanError`
 * (negative): EOS decoded, padding of 8 bits or more, padding that is not all ones.
 */
export function huffmanDecode(src: Buffer, start: number, end: number, out: Buffer): number {
  const steps = HUFFMAN_STEPS;
  let state = 0;
  let n = 0;
  for (let i = start; i < end; i++) {
    const octet = src[i]!;
    let step = steps[(state << 4) | (octet >> 4)]!;
    if ((step & STEP_FAILS) !== 0) return HuffmanError.Eos;
    if ((step & STEP_EMITS) !== 0) out[n++] = step >> 8;
    state = step & 0xff;
    step = steps[(state << 4) | (octet & 0xf)]!;
    if ((step & STEP_FAILS) !== 0) return HuffmanError.Eos;
    if ((step & STEP_EMITS) !== 0) out[n++] = step >> 8;
    state = step & 0xff;
  }
  const check = END_CHECK[state];
  if (check === EndCheck.Ok) return n;
  return check === EndCheck.TooLong ? HuffmanError.PaddingTooLong : HuffmanError.PaddingNotOnes;
}

/** Octets `s` takes Huffman-coded, padding included. */
export function huffmanEncodedLength(s: string): number {
  let bits = 0;
  for (let i = 0; i < s.length; i++) bits += HUFFMAN_LENGTHS[s.charCodeAt(i) & 0xff]!;
  return (bits + 7) >> 3;
}

/**
 * Writes `s` Huffman-coded at `out[pos]` (room for `huffmanEncodedLength(s)` octets), the last
 * octet padded with ones (EOS's leading bits); returns the offset after it.
 */
export function huffmanEncode(s: string, out: Buffer, pos: number): number {
  let acc = 0; // pending bits, fewer than 8 between symbols
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    const symbol = s.charCodeAt(i) & 0xff;
    let code = HUFFMAN_CODES[symbol]!;
    let length = HUFFMAN_LENGTHS[symbol]!;
    if (length > 24) {
      // Keep acc within 31 bits: the code's high part first, its last 8 bits below.
      acc = (acc << (length - 8)) | (code >>> 8);
      bits += length - 8;
      while (bits >= 8) {
        bits -= 8;
        out[pos++] = acc >>> bits;
      }
      acc &= (1 << bits) - 1;
      code &= 0xff;
      length = 8;
    }
    acc = (acc << length) | code;
    bits += length;
    while (bits >= 8) {
      bits -= 8;
      out[pos++] = acc >>> bits;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out[pos++] = (acc << (8 - bits)) | (0xff >> bits);
  return pos;
}
