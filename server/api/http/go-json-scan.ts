/**
 * An exact JSON reader with Go's `encoding/json` grammar and error texts (the reference gateway
 * reads request bodies with Go's decoder). Numbers are never converted: a number token keeps its
 * literal text, so a 64-bit id survives with every digit; the field's proto type decides later
 * how to read it (jsonpb-decode.ts).
 *
 * Contract (pure):
 * - `scanJson(text, 'decoder')` reads ONE value like `json.Decoder.Decode`: leading whitespace
 *   skipped, anything after the value ignored; only whitespace → `{ ok: true, value: undefined }`
 *   (Go's io.EOF); the text ending inside a value → `unexpected EOF`.
 * - `scanJson(text, 'document')` reads a whole document like `json.Unmarshal`: text after the
 *   value → `invalid character 'x' after top-level value`; the text ending early → `unexpected end
 *   of JSON input`, or, inside a number or a literal, the error Go's scanner gives for a space there.
 * - syntax errors carry Go's scanner wording (`invalid character '}' looking for beginning of
 *   object key string`, …); nesting deeper than 10000 → `… exceeded max depth`.
 * - strings keep both their raw text (between the quotes, escapes untouched: jsonpb strips the
 *   quotes of a quoted number without unescaping) and their value (escapes decoded; an unpaired
 *   surrogate escape becomes U+FFFD as in Go). Object keys are decoded; duplicates are all kept in
 *   order (the reader of the object decides: Go's map keeps the last).
 */
import { goQuoteChar } from './go-quote.js';

export type JsonValue =
  | { readonly kind: 'object'; readonly entries: ReadonlyArray<readonly [string, JsonValue]> }
  | { readonly kind: 'array'; readonly items: readonly JsonValue[] }
  | { readonly kind: 'string'; readonly raw: string; readonly value: string }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'null' };

export type ScanMode = 'decoder' | 'document';

export type Scanned =
  | { readonly ok: true; readonly value: JsonValue | undefined }
  | { readonly ok: false; readonly message: string };

const MAX_DEPTH = 10000;

class ScanError extends Error {}

interface Frame {
  readonly kind: 'object' | 'array';
  readonly entries: Array<readonly [string, JsonValue]>;
  readonly items: JsonValue[];
  key: string;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** Reads one JSON value from `text` (see the file header for the two modes). */
export function scanJson(text: string, mode: ScanMode): Scanned {
  try {
    return { ok: true, value: new Reader(text, mode).read() };
  } catch (err) {
    if (err instanceof ScanError) return { ok: false, message: err.message };
    throw err;
  }
}

class Reader {
  private i = 0;
  /** A run of string characters that need no attention (no quote, backslash or control char). */
  // eslint-disable-next-line no-control-regex -- JSON forbids raw control characters in strings: the run must stop at them
  private readonly plainRun = /[^"\\\u0000-\u001f]*/y;
  constructor(
    private readonly text: string,
    private readonly mode: ScanMode,
  ) {}

  read(): JsonValue | undefined {
    this.skipSpace();
    if (this.i >= this.text.length) {
      if (this.mode === 'decoder') return undefined;
      throw this.eof();
    }
    const stack: Frame[] = [];
    for (;;) {
      // A value starts at this.i (whitespace already skipped).
      let value = this.openOrScalar(stack);
      if (value === undefined) continue; // a container was opened: read its first value
      // Attach the completed value to its parents, closing every container that ends here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return this.finishTop(value);
        if (top.kind === 'object') top.entries.push([top.key, value]);
        else top.items.push(value);
        this.skipSpace();
        const c = this.peekOrEof();
        if (c === ',') {
          this.i++;
          this.skipSpace();
          if (top.kind === 'object') this.readKey(top);
          break;
        }
        if ((top.kind === 'object' && c === '}') || (top.kind === 'array' && c === ']')) {
          this.i++;
          stack.pop();
          value = top.kind === 'object' ? { kind: 'object', entries: top.entries } : { kind: 'array', items: top.items };
          continue;
        }
        throw this.invalid(c, top.kind === 'object' ? 'after object key:value pair' : 'after array element');
      }
    }
  }

  private finishTop(value: JsonValue): JsonValue {
    if (this.mode === 'document') {
      this.skipSpace();
      if (this.i < this.text.length) throw this.invalid(this.text[this.i]!, 'after top-level value');
    }
    return value;
  }

  /** Opens `{`/`[` (returns undefined, positioned at the first value) or reads a scalar / empty container. */
  private openOrScalar(stack: Frame[]): JsonValue | undefined {
    const c = this.peekOrEof();
    if (c === '{' || c === '[') {
      if (stack.length + 1 > MAX_DEPTH) throw this.invalid(c, 'exceeded max depth');
      this.i++;
      this.skipSpace();
      const next = this.peekOrEof();
      if (c === '{') {
        if (next === '}') {
          this.i++;
          return { kind: 'object', entries: [] };
        }
        const frame: Frame = { kind: 'object', entries: [], items: [], key: '' };
        this.readKey(frame);
        stack.push(frame);
        return undefined;
      }
      if (next === ']') {
        this.i++;
        return { kind: 'array', items: [] };
      }
      stack.push({ kind: 'array', entries: [], items: [], key: '' });
      return undefined;
    }
    if (c === '"') return this.readString();
    if (c === '-' || isDigit(c)) return this.readNumber();
    if (c === 't') return this.readLiteral('true', { kind: 'bool', value: true });
    if (c === 'f') return this.readLiteral('false', { kind: 'bool', value: false });
    if (c === 'n') return this.readLiteral('null', { kind: 'null' });
    throw this.invalid(c, 'looking for beginning of value');
  }

  /** Reads `"key" :` and leaves the reader at the value (whitespace skipped). */
  private readKey(frame: Frame): void {
    const c = this.peekOrEof();
    if (c !== '"') throw this.invalid(c, 'looking for beginning of object key string');
    frame.key = this.readString().value;
    this.skipSpace();
    const colon = this.peekOrEof();
    if (colon !== ':') throw this.invalid(colon, 'after object key');
    this.i++;
    this.skipSpace();
    this.peekOrEof();
  }

  private readString(): { kind: 'string'; raw: string; value: string } {
    const start = ++this.i;
    let value = '';
    let plainFrom = start;
    for (;;) {
      this.plainRun.lastIndex = this.i;
      this.plainRun.test(this.text);
      this.i = this.plainRun.lastIndex;
      const c = this.text[this.i];
      if (c === undefined) throw this.eof();
      if (c === '"') {
        value += this.text.slice(plainFrom, this.i);
        const raw = this.text.slice(start, this.i);
        this.i++;
        return { kind: 'string', raw, value };
      }
      if (c < ' ') throw this.invalid(c, 'in string literal');
      if (c !== '\\') {
        this.i++;
        continue;
      }
      value += this.text.slice(plainFrom, this.i);
      const e = this.text[this.i + 1];
      if (e === undefined) throw this.eof();
      const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      if (e in simple) {
        value += simple[e];
        this.i += 2;
      } else if (e === 'u') {
        const unit = this.readHex4(this.i + 2);
        this.i += 6;
        value += this.surrogateAware(unit);
      } else {
        throw this.invalid(e, 'in string escape code');
      }
      plainFrom = this.i;
    }
  }

  private readHex4(at: number): number {
    for (let k = 0; k < 4; k++) {
      const h = this.text[at + k];
      if (h === undefined) throw this.eof();
      if (!isHex(h)) throw this.invalid(h, 'in \\u hexadecimal character escape');
    }
    return parseInt(this.text.slice(at, at + 4), 16);
  }

  /** A `\uXXXX` unit (already consumed): a valid surrogate pair joins the next escape, else U+FFFD. */
  private surrogateAware(unit: number): string {
    if (unit < 0xd800 || unit > 0xdfff) return String.fromCharCode(unit);
    if (unit <= 0xdbff && this.text[this.i] === '\\' && this.text[this.i + 1] === 'u') {
      const at = this.i + 2;
      if (/^[0-9a-fA-F]{4}$/.test(this.text.slice(at, at + 4))) {
        const low = parseInt(this.text.slice(at, at + 4), 16);
        if (low >= 0xdc00 && low <= 0xdfff) {
          this.i += 6;
          return String.fromCharCode(unit, low);
        }
      }
    }
    return '\ufffd';
  }

  private readNumber(): { kind: 'number'; text: string } {
    const start = this.i;
    if (this.text[this.i] === '-') {
      this.i++;
      this.digitOrFail('in numeric literal');
    }
    if (this.text[this.i] === '0') this.i++;
    else this.skipDigits();
    if (this.text[this.i] === '.') {
      this.i++;
      this.digitOrFail('after decimal point in numeric literal');
      this.skipDigits();
    }
    if (this.text[this.i] === 'e' || this.text[this.i] === 'E') {
      this.i++;
      if (this.text[this.i] === '+' || this.text[this.i] === '-') this.i++;
      this.digitOrFail('in exponent of numeric literal');
      this.skipDigits();
    }
    return { kind: 'number', text: this.text.slice(start, this.i) };
  }

  private digitOrFail(context: string): void {
    const c = this.text[this.i];
    if (c === undefined) throw this.eofInToken(context);
    if (!isDigit(c)) throw this.invalid(c, context);
  }

  private skipDigits(): void {
    while (isDigit(this.text[this.i])) this.i++;
  }

  private readLiteral(word: string, value: JsonValue): JsonValue {
    for (let k = 1; k < word.length; k++) {
      const c = this.text[this.i + k];
      const context = `in literal ${word} (expecting '${word[k]}')`;
      if (c === undefined) {
        this.i += k;
        throw this.eofInToken(context);
      }
      if (c !== word[k]) throw this.invalid(c, context);
    }
    this.i += word.length;
    return value;
  }

  private skipSpace(): void {
    while (isSpace(this.text[this.i])) this.i++;
  }

  private peekOrEof(): string {
    const c = this.text[this.i];
    if (c === undefined) throw this.eof();
    return c;
  }

  private invalid(c: string, context: string): ScanError {
    return new ScanError(`invalid character ${goQuoteChar(c)} ${context}`);
  }

  private eof(): ScanError {
    return new ScanError(this.mode === 'decoder' ? 'unexpected EOF' : 'unexpected end of JSON input');
  }

  /** The text ends inside a number or a literal: Go's Unmarshal reports the space it feeds at EOF. */
  private eofInToken(context: string): ScanError {
    return this.mode === 'decoder' ? this.eof() : this.invalid(' ', context);
  }
}
