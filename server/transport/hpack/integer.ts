/**
 * HPACK integers (RFC 7541 §5.1): an N-bit prefix, then 7 bits per continuation octet, least
 * significant group first.
 *
 * Limit (§5.1: "integer encodings that exceed implementation limits — in value or octet
 * length — MUST be treated as decoding errors"): values up to 2^31 - 1, and at most five
 * continuation octets (enough for 2^31 - 1 plus zero padding); anything more is refused.
 */

/** The largest integer decoded. */
export const MAX_INTEGER = 0x7fffffff;
/** `readInteger` results below 0. */
export const IntegerError = { Truncated: -1, TooLarge: -2 } as const;

/** A read position in a header block; `end` is the block's end. */
export interface Cursor {
  buf: Buffer;
  pos: number;
  end: number;
}

/**
 * Reads an integer with a `prefixBits`-bit prefix at `c.pos` (the representation's other bits
 * of that octet are ignored) and moves `c.pos` past it. Returns the value, or an
 * `IntegerError` (negative: then `c.pos` is unchanged).
 */
export function readInteger(c: Cursor, prefixBits: number): number {
  const buf = c.buf;
  const end = c.end;
  let pos = c.pos;
  if (pos >= end) return IntegerError.Truncated;
  const mask = (1 << prefixBits) - 1;
  let value = buf[pos++]! & mask;
  if (value === mask) {
    let weight = 1;
    for (let octets = 1; ; octets++) {
      if (pos >= end) return IntegerError.Truncated;
      const octet = buf[pos++]!;
      value += (octet & 0x7f) * weight;
      if (value > MAX_INTEGER) return IntegerError.TooLarge;
      if ((octet & 0x80) === 0) break;
      if (octets === 5) return IntegerError.TooLarge;
      weight *= 128;
    }
  }
  c.pos = pos;
  return value;
}

/**
 * Writes `value` (0 … MAX_INTEGER) with a `prefixBits`-bit prefix at `out[pos]`; `pattern`
 * holds the representation's bits above the prefix. Returns the offset after it.
 */
export function writeInteger(out: Buffer, pos: number, value: number, prefixBits: number, pattern: number): number {
  const mask = (1 << prefixBits) - 1;
  if (value < mask) {
    out[pos++] = pattern | value;
    return pos;
  }
  out[pos++] = pattern | mask;
  let rest = value - mask;
  while (rest >= 128) {
    out[pos++] = (rest & 0x7f) | 0x80;
    rest = Math.floor(rest / 128);
  }
  out[pos++] = rest;
  return pos;
}
