/**
 * An HPACK decoding context (RFC 7541 §3, §6): one per connection, fed every header block in
 * the order the peer sent them; dynamic-table inserts and size updates carry over.
 *
 * Results:
 * - 'ok': the block's fields, in order;
 * - 'malformed': the block breaks a rule of RFC 7541 (the reason names it); the caller answers
 *   COMPRESSION_ERROR and ends the connection. The context is spent: every later block gets
 *   'malformed' too;
 * - 'too-large': the decoded list (RFC 9113 §6.5.2 size: name + value + 32 per field) exceeds
 *   `maxHeaderListBytes`. Fields past the limit are not collected, but the whole block is still
 *   processed (table inserts, size updates, every check), so the context stays in step with the
 *   peer's: the caller may refuse the stream alone and keep the connection.
 *   (A block that is both too large and malformed is 'malformed'.)
 *
 * Memory: fields are collected only up to the limit; strings are made only for literals in the
 * block (at most 8/5 of its octets), indexed fields share the table's objects.
 */
import { BlockCursor } from './block-cursor.js';
import { DynamicTable } from './dynamic-table.js';
import { fieldSize, type HeaderField } from './header-field.js';
import { STATIC_TABLE_LENGTH, staticField } from './static-table.js';

export type HpackDecodeResult =
  | { readonly kind: 'ok'; readonly fields: readonly HeaderField[] }
  | { readonly kind: 'malformed'; readonly reason: string }
  | { readonly kind: 'too-large'; readonly listBytes: number };

export interface HpackDecoderOptions {
  /** SETTINGS_HEADER_TABLE_SIZE as advertised: the initial and largest dynamic table size. */
  readonly maxTableSize: number;
  /** Largest decoded header list (RFC 9113 size); Infinity for no limit. */
  readonly maxHeaderListBytes: number;
}

export class HpackDecoder {
  readonly #table: DynamicTable;
  readonly #maxTableSize: number;
  readonly #maxListBytes: number;
  readonly #cursor = new BlockCursor();
  #broken: string | undefined;

  constructor(options: HpackDecoderOptions) {
    this.#maxTableSize = options.maxTableSize;
    this.#maxListBytes = options.maxHeaderListBytes;
    this.#table = new DynamicTable(options.maxTableSize);
  }

  /** The dynamic table, for inspection (tests): not to be changed from outside. */
  get table(): DynamicTable {
    return this.#table;
  }

  decode(block: Buffer): HpackDecodeResult {
    if (this.#broken !== undefined) return { kind: 'malformed', reason: `HPACK context unusable after: ${this.#broken}` };
    const c = this.#cursor;
    c.reset(block);
    const fields: HeaderField[] = [];
    let listBytes = 0;
    let sizeUpdateAllowed = true; // §4.2: only at the beginning of a block, one or more
    while (c.pos < c.end && c.failure === undefined) {
      const at = c.pos;
      const first = c.buf[at]!;
      let field: HeaderField;
      if (first >= 0x80) {
        field = this.#indexed(c.integer(7, 'index'), at);
      } else if (first >= 0x40) {
        field = this.#literal(6, false, at);
        if (c.failure === undefined) this.#table.add(field);
      } else if (first >= 0x20) {
        this.#sizeUpdate(sizeUpdateAllowed);
        continue;
      } else {
        field = this.#literal(4, first >= 0x10, at);
      }
      if (c.failure !== undefined) break;
      sizeUpdateAllowed = false;
      listBytes += fieldSize(field.name, field.value);
      if (listBytes <= this.#maxListBytes) fields.push(field);
    }
    const failure = c.failure;
    c.release();
    if (failure !== undefined) {
      this.#broken = failure;
      return { kind: 'malformed', reason: failure };
    }
    if (listBytes > this.#maxListBytes) return { kind: 'too-large', listBytes };
    return { kind: 'ok', fields };
  }

  /** The field at `index` in the static + dynamic index space (§2.3.3), checked. */
  #indexed(index: number, at: number): HeaderField {
    const c = this.#cursor;
    if (index < 0) return staticField(1); // failure already set
    if (index === 0) {
      c.fail(`index 0 in the representation at octet ${at} (RFC 7541 §6.1)`);
      return staticField(1);
    }
    if (index <= STATIC_TABLE_LENGTH) return staticField(index);
    const entry = this.#table.get(index - STATIC_TABLE_LENGTH);
    if (entry !== undefined) return entry;
    c.fail(`index ${index} in the representation at octet ${at} is beyond the static and dynamic tables (${STATIC_TABLE_LENGTH} + ${this.#table.length} entries, RFC 7541 §2.3.3)`);
    return staticField(1);
  }

  /** A literal field (§6.2): name index (or 0 and a literal name), then the value. */
  #literal(prefixBits: number, neverIndex: boolean, at: number): HeaderField {
    const c = this.#cursor;
    const nameIndex = c.integer(prefixBits, 'name index');
    if (nameIndex < 0) return staticField(1);
    const name = nameIndex === 0 ? c.string('name') : this.#indexed(nameIndex, at).name;
    if (c.failure !== undefined) return staticField(1);
    const value = c.string('value');
    return { name, value, neverIndex };
  }

  /** A dynamic table size update (§6.3), allowed only at the start of a block (§4.2). */
  #sizeUpdate(allowed: boolean): void {
    const c = this.#cursor;
    const at = c.pos;
    if (!allowed) {
      c.fail(`dynamic table size update at octet ${at}, after a header field (RFC 7541 §4.2: only at the beginning of a block)`);
      return;
    }
    const size = c.integer(5, 'dynamic table size');
    if (size < 0) return;
    if (size > this.#maxTableSize) {
      c.fail(`dynamic table size update to ${size} at octet ${at}, above the ${this.#maxTableSize} allowed (RFC 7541 §6.3)`);
      return;
    }
    this.#table.setMaxSize(size);
  }
}
