/**
 * The HPACK Huffman code (RFC 7541 Appendix B), written as its code lengths.
 *
 * The RFC's code is canonical: codes of one length are consecutive in symbol order, and the
 * first code of each length follows the last code of the length before (shifted left). So the
 * lengths alone fix every code; `HUFFMAN_CODES` is derived from them below. Worked example:
 * the ten 5-bit symbols '0' '1' '2' 'a' 'c' 'e' 'i' 'o' 's' 't' get 00000 … 01001, and the first
 * 6-bit symbol, ' ', gets (01001 + 1) << 1 = 010100 (0x14), as in the RFC's table.
 * Symbol 256 is EOS (thirty 1 bits): never a string's content, its prefixes pad the last octet.
 */

/** The EOS symbol. */
export const EOS = 256;

const LENGTHS: readonly number[] = [
  // 0-31: control characters
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
  28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  // 32-47: ' ' ! " # $ % & ' ( ) * + , - . /
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
  // 48-63: 0-9 : ; < = > ?
  5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  // 64-79: @ A-O
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  // 80-95: P-Z [ \ ] ^ _
  7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  // 96-111: ` a-o
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
  // 112-127: p-z { | } ~ DEL
  6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  // 128-255
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
  24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
  21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
  26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  // 256: EOS
  30,
];

/** Code length in bits of each symbol 0 … 256. */
export const HUFFMAN_LENGTHS: Readonly<Uint8Array> = Uint8Array.from(LENGTHS);

/** The code of each symbol 0 … 256, right-aligned (its low `HUFFMAN_LENGTHS[s]` bits). */
export const HUFFMAN_CODES: Readonly<Uint32Array> = canonicalCodes(HUFFMAN_LENGTHS);

function canonicalCodes(lengths: Uint8Array): Uint32Array {
  const codes = new Uint32Array(lengths.length);
  let code = 0;
  let previousLength = 0;
  for (let length = 1; length <= 30; length++) {
    for (let symbol = 0; symbol < lengths.length; symbol++) {
      if (lengths[symbol] !== length) continue;
      if (previousLength !== 0) code = (code + 1) * 2 ** (length - previousLength);
      codes[symbol] = code;
      previousLength = length;
    }
  }
  return codes;
}
