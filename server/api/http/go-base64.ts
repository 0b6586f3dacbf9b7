/**
 * Standard base64 (padded, not strict) decoded exactly as Go's `base64.StdEncoding.Decode`, which
 * the reference gateway uses for `bytes` fields: `\r` and `\n` are skipped anywhere, padding is
 * required, unused low bits of the last character are ignored, and the error names the input
 * byte where decoding stopped (`illegal base64 data at input byte N`, N counted in UTF-8 bytes).
 *
 * Contract (pure): `decodeGoBase64(text)` → the bytes, or the error text.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(256).fill(-1);
for (let k = 0; k < ALPHABET.length; k++) DECODE[ALPHABET.charCodeAt(k)] = k;

const PAD = 0x3d; // '='
const isNewline = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;

export type Base64Decoded = { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly message: string };

const corrupt = (at: number): Base64Decoded => ({ ok: false, message: `illegal base64 data at input byte ${at}` });

/** Well-formed padded base64 without line breaks: Node's decoder reads it exactly as Go's does. */
export const WELL_FORMED_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function decodeGoBase64(text: string): Base64Decoded {
  if (WELL_FORMED_BASE64.test(text)) return { ok: true, bytes: Buffer.from(text, 'base64') };
  const src = Buffer.from(text, 'utf8');
  const out: number[] = [];
  let si = 0;
  while (si < src.length) {
    // One quantum: up to 4 characters (Go's decodeQuantum).
    const buf = [0, 0, 0, 0];
    let dlen = 4;
    let trailing: number | undefined;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return { ok: true, bytes: Buffer.from(out) };
        return corrupt(si - j);
      }
      const b = src[si]!;
      si++;
      const v = DECODE[b]!;
      if (v >= 0) {
        buf[j] = v;
        continue;
      }
      if (isNewline(b)) {
        j--;
        continue;
      }
      if (b !== PAD) return corrupt(si - 1);
      // Padding: the quantum ends here.
      if (j < 2) return corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) return corrupt(src.length);
        if (src[si] !== PAD) return corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) trailing = si;
      dlen = j;
      break;
    }
    const val = (buf[0]! << 18) | (buf[1]! << 12) | (buf[2]! << 6) | buf[3]!;
    if (dlen > 1) out.push((val >> 16) & 0xff);
    if (dlen > 2) out.push((val >> 8) & 0xff);
    if (dlen > 3) out.push(val & 0xff);
    if (trailing !== undefined) return corrupt(trailing);
  }
  return { ok: true, bytes: Buffer.from(out) };
}
