/**
 * Go formatting verbs the printers need, reproduced exactly:
 * `%q` of a byte string (strconv.Quote), `%x`/`%016x`/`%16x` of 64-bit ids, `%v` of a string
 * slice, and encoding/json's string escaping (HTML-safe: `<`, `>`, `&` as \u003c…).
 */

const SIMPLE_ESCAPES: Readonly<Record<number, string>> = { 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v', 92: '\\\\', 34: '\\"' };

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function hex2(n: number): string {
  return n.toString(16).padStart(2, '0');
}

/** Decodes one UTF-8 sequence at `i`: the code point and its length, or undefined when invalid. */
function decodeRune(b: Uint8Array, i: number): { cp: number; len: number } | undefined {
  const c = b[i];
  if (c < 0x80) return { cp: c, len: 1 };
  let need: number;
  if (c >= 0xc2 && c <= 0xdf) need = 1;
  else if (c >= 0xe0 && c <= 0xef) need = 2;
  else if (c >= 0xf0 && c <= 0xf4) need = 3;
  else return undefined;
  if (i + need >= b.length) return undefined;
  let cp = c & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
  for (let k = 1; k <= need; k++) {
    const cc = b[i + k];
    if ((cc & 0xc0) !== 0x80) return undefined;
    cp = (cp << 6) | (cc & 0x3f);
  }
  const min = need === 1 ? 0x80 : need === 2 ? 0x800 : 0x10000;
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
  return { cp, len: need + 1 };
}

/** Go's strconv.Quote of the bytes (or of a string's UTF-8 bytes). */
export function goQuote(v: Uint8Array | string): string {
  const b = typeof v === 'string' ? Buffer.from(v, 'utf8') : v;
  let out = '"';
  for (let i = 0; i < b.length; ) {
    const r = decodeRune(b, i);
    if (r === undefined) {
      out += `\\x${hex2(b[i])}`;
      i += 1;
      continue;
    }
    i += r.len;
    const esc = SIMPLE_ESCAPES[r.cp];
    if (esc !== undefined) out += esc;
    else if (r.cp < 0x20 || r.cp === 0x7f) out += `\\x${hex2(r.cp)}`;
    else if (PRINTABLE.test(String.fromCodePoint(r.cp))) out += String.fromCodePoint(r.cp);
    else if (r.cp < 0x10000) out += `\\u${r.cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${r.cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** `%x` of an unsigned 64-bit id (two's complement for negative int64). */
export function hexId(id: bigint): string {
  return BigInt.asUintN(64, id).toString(16);
}

/** `%016x`. */
export function hex016(id: bigint): string {
  return hexId(id).padStart(16, '0');
}

/** `%16x` (space padded). */
export function hex16(id: bigint): string {
  return hexId(id).padStart(16, ' ');
}

/** etcdctl's `--hex` form of bytes: `\x` before every byte's two hex digits. */
export function hexBytes(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += `\\x${hex2(x)}`;
  return s;
}

/** `%v` of a []string: `[a b c]`. */
export function goStringSlice(items: readonly string[]): string {
  return `[${items.join(' ')}]`;
}

/** encoding/json's text of a string (HTML-safe escaping). */
export function goJsonString(s: string): string {
  return JSON.stringify(s)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
