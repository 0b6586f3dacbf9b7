/**
 * Go's quoting in error texts the reference gateway sends: `quoteChar` of encoding/json's
 * scanner (the byte it stopped at) and `%q` of a byte string (jsonpb's unknown enum names).
 * Pure.
 */

/** Go's `quoteChar` of the byte the scanner stopped at (the first UTF-8 byte of a non-ASCII char). */
export function goQuoteChar(ch: string): string {
  if (ch === "'") return `'\\''`;
  if (ch === '"') return `'"'`;
  const code = ch.charCodeAt(0);
  const byte = code < 0x80 ? code : Buffer.from(ch, 'utf8')[0]!;
  return `'${goQuoteRune(byte)}'`;
}

/** The inside of `strconv.Quote(string(rune(c)))` for c < 256. */
function goQuoteRune(c: number): string {
  switch (c) {
    case 0x07: return '\\a';
    case 0x08: return '\\b';
    case 0x0c: return '\\f';
    case 0x0a: return '\\n';
    case 0x0d: return '\\r';
    case 0x09: return '\\t';
    case 0x0b: return '\\v';
    case 0x5c: return '\\\\';
    case 0x22: return '\\"';
  }
  if (c < 0x20 || c === 0x7f) return `\\x${c.toString(16).padStart(2, '0')}`;
  if (c >= 0x80 && (c < 0xa0 || c === 0xa0 || c === 0xad)) return `\\u${c.toString(16).padStart(4, '0')}`;
  return String.fromCharCode(c);
}

/** Go's `%q` of a byte string (enough for error texts: quotes, backslashes, control chars). */
export function goQuote(s: string): string {
  const named: Readonly<Record<string, string>> = {
    '\\': '\\\\',
    '"': '\\"',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\b': '\\b',
    '\f': '\\f',
    '\u0007': '\\a',
    '\u000b': '\\v',
  };
  let out = '';
  for (const c of s) {
    const code = c.charCodeAt(0);
    if (named[c] !== undefined) out += named[c];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += c;
  }
  return `"${out}"`;
}
