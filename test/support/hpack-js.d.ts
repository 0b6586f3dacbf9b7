/**
 * Types for the parts of the `hpack.js` package (RFC 7541 HPACK, CommonJS, untyped) that
 * the tests use (an independent HPACK implementation beside server/transport/hpack/). Header names and values are byte strings: one char per octet.
 */
declare module 'hpack.js' {
  import type { Duplex } from 'node:stream';

  interface HpackTableOptions {
    /** The largest dynamic table size the peer may ask for (SETTINGS_HEADER_TABLE_SIZE). */
    readonly maxSize: number;
  }
  interface HpackHeader {
    readonly name: string;
    readonly value: string;
    /** Decoded from "literal never indexed"; encodes as such when true. */
    readonly neverIndex?: boolean;
    /** Encoder only: false encodes "literal without indexing" (no dynamic-table insert). */
    readonly incremental?: boolean;
    /** Encoder only: false sends the string raw instead of Huffman-coded. */
    readonly huffman?: boolean;
  }
  /** Write a header block (Buffer), call `execute()`, then `read()` returns one header or null. */
  interface Decompressor extends Duplex {
    execute(): void;
    read(): HpackHeader | null;
  }
  /** Write an array of headers, then `read()` returns the encoded block (or null when empty). */
  interface Compressor extends Duplex {
    read(): Buffer | null;
  }
  const hpack: {
    readonly decompressor: { create(options: { table: HpackTableOptions }): Decompressor };
    readonly compressor: { create(options: { table: HpackTableOptions }): Compressor };
  };
  export default hpack;
}
