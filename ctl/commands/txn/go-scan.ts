/**
 * The pieces of Go's fmt scanning that etcdctl's txn parser relies on: quoted strings (`%q`:
 * "…" with Go escapes, or `…`), space-delimited tokens (`%s`), literal characters, and format
 * spaces (a run of spaces that must match at least one space, or the end of input).
 */
const SIMPLE: Readonly<Record<string, number>> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, "'": 39, '"': 34 };

/** Go's strconv.Unquote of a double-quoted literal body (without the quotes), as bytes. */
export function unquoteGo(body: string): Buffer | undefined {
  const out: number[] = [];
  for (let i = 0; i < body.length; ) {
    const c = body[i];
    if (c !== '\\') {
      const cp = body.codePointAt(i) ?? 0;
      const ch = String.fromCodePoint(cp);
      out.push(...Buffer.from(ch, 'utf8'));
      i += ch.length;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) return undefined;
    if (SIMPLE[e] !== undefined) {
      out.push(SIMPLE[e]);
      i += 2;
    } else if (e === 'x') {
      const h = body.slice(i + 2, i + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(h)) return undefined;
      out.push(parseInt(h, 16));
      i += 4;
    } else if (/[0-7]/.test(e)) {
      const o = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(o) || parseInt(o, 8) > 255) return undefined;
      out.push(parseInt(o, 8));
      i += 4;
    } else if (e === 'u' || e === 'U') {
      const n = e === 'u' ? 4 : 8;
      const h = body.slice(i + 2, i + 2 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(h)) return undefined;
      const cp = parseInt(h, 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
      out.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
      i += 2 + n;
    } else return undefined;
  }
  return Buffer.from(out);
}

export class GoScanner {
  private pos = 0;

  constructor(private readonly s: string) {}

  private skipSpaces(): void {
    while (this.pos < this.s.length && /\s/.test(this.s[this.pos])) this.pos++;
  }

  /** `%q`. */
  quoted(): Buffer | undefined {
    this.skipSpaces();
    const q = this.s[this.pos];
    if (q === '`') {
      const end = this.s.indexOf('`', this.pos + 1);
      if (end < 0) return undefined;
      const v = Buffer.from(this.s.slice(this.pos + 1, end), 'utf8');
      this.pos = end + 1;
      return v;
    }
    if (q !== '"') return undefined;
    let i = this.pos + 1;
    while (i < this.s.length && this.s[i] !== '"') i += this.s[i] === '\\' ? 2 : 1;
    if (i >= this.s.length) return undefined;
    const v = unquoteGo(this.s.slice(this.pos + 1, i));
    if (v === undefined) return undefined;
    this.pos = i + 1;
    return v;
  }

  /** `%s`. */
  token(): string | undefined {
    this.skipSpaces();
    const start = this.pos;
    while (this.pos < this.s.length && !/\s/.test(this.s[this.pos])) this.pos++;
    return this.pos > start ? this.s.slice(start, this.pos) : undefined;
  }

  /** A literal character of the format. */
  literal(c: string): boolean {
    if (this.s[this.pos] !== c) return false;
    this.pos++;
    return true;
  }

  /** A space in the format. */
  spaces(): boolean {
    if (this.pos >= this.s.length) return true;
    if (!/\s/.test(this.s[this.pos])) return false;
    this.skipSpaces();
    return true;
  }
}
