/**
 * A read position in one header block, with the primitives every representation is made of:
 * integers (§5.1) and string literals (§5.2, raw or Huffman-coded).
 *
 * Contract: a read either succeeds and moves `pos` past what it read, or sets `failure` (a
 * reason naming the RFC rule) and returns a dummy value (-1, ''); the caller checks `failure`
 * once per representation. Strings come out as latin1 byte strings. One cursor per decoding
 * context: it owns the scratch octets Huffman strings are decoded into.
 */
import { huffmanDecode, huffmanDecodedBound, HuffmanError } from './huffman.js';
import { IntegerError, MAX_INTEGER, readInteger, type Cursor } from './integer.js';

const EMPTY = Buffer.alloc(0);
/** Scratch kept by a context between strings: a longer Huffman string gets a buffer of its own. */
const MAX_KEPT_SCRATCH = 16 * 1024;

const HUFFMAN_REASONS: Readonly<Record<HuffmanError, string>> = {
  [HuffmanError.Eos]: 'Huffman string contains the EOS symbol (RFC 7541 §5.2)',
  [HuffmanError.PaddingTooLong]: 'Huffman string padding longer than 7 bits (RFC 7541 §5.2)',
  [HuffmanError.PaddingNotOnes]: 'Huffman string padding is not the most significant bits of EOS (RFC 7541 §5.2)',
};

export class BlockCursor implements Cursor {
  buf: Buffer = EMPTY;
  pos = 0;
  end = 0;
  failure: string | undefined = undefined;
  #scratch: Buffer = Buffer.allocUnsafe(256);

  /** Starts reading `block` from its first octet. */
  reset(block: Buffer): void {
    this.buf = block;
    this.pos = 0;
    this.end = block.length;
    this.failure = undefined;
  }

  /** Drops the block (the cursor keeps no reference to the caller's buffer between blocks). */
  release(): void {
    this.buf = EMPTY;
  }

  fail(reason: string): void {
    this.failure ??= `HPACK: ${reason}`;
  }

  /** An integer with a `prefixBits`-bit prefix (RFC 7541 §5.1), or -1; `what` names it in reasons. */
  integer(prefixBits: number, what: string): number {
    const at = this.pos;
    const value = readInteger(this, prefixBits);
    if (value === IntegerError.Truncated) this.fail(`${what} at octet ${at} runs past the end of the block (RFC 7541 §5.1)`);
    else if (value === IntegerError.TooLarge) this.fail(`${what} at octet ${at} exceeds ${MAX_INTEGER} or takes more than 6 octets (RFC 7541 §5.1)`);
    return value;
  }

  /** A string literal (RFC 7541 §5.2), or ''; `what` names it in reasons. */
  string(what: string): string {
    if (this.pos >= this.end) {
      this.fail(`${what} missing: the block ends inside a representation`);
      return '';
    }
    const huffman = (this.buf[this.pos]! & 0x80) !== 0;
    const length = this.integer(7, `${what} length`);
    if (length < 0) return '';
    const start = this.pos;
    if (length > this.end - start) {
      this.fail(`${what} of ${length} octets at octet ${start} runs past the end of the block (${this.end - start} left)`);
      return '';
    }
    this.pos = start + length;
    if (!huffman) return this.buf.toString('latin1', start, start + length);
    const out = this.#scratchFor(huffmanDecodedBound(length));
    const n = huffmanDecode(this.buf, start, start + length, out);
    if (n < 0) {
      this.fail(`${what} at octet ${start}: ${HUFFMAN_REASONS[n as HuffmanError]}`);
      return '';
    }
    return out.toString('latin1', 0, n);
  }

  /** Room for `octets`: the kept scratch grows up to MAX_KEPT_SCRATCH, larger needs are one-off. */
  #scratchFor(octets: number): Buffer {
    if (octets <= this.#scratch.length) return this.#scratch;
    if (octets > MAX_KEPT_SCRATCH) return Buffer.allocUnsafe(octets);
    this.#scratch = Buffer.allocUnsafe(Math.min(MAX_KEPT_SCRATCH, Math.max(octets, 2 * this.#scratch.length)));
    return this.#scratch;
  }
}
