/**
 * A minimal protobuf reader (the peer message decoder, the put decoder of apply/): varints
 * straight into numbers (terms, indexes, lengths) or bigints (member ids), length-delimited
 * fields as offsets into the frame.
 * It allocates nothing of its own; errors are thrown as RangeError and turned into error values
 * by the caller (`decodeMessage`).
 */

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

export class ProtoReader {
  readonly buf: Buffer;
  pos: number;
  readonly end: number;

  constructor(buf: Buffer, pos = 0, end = buf.length) {
    this.buf = buf;
    this.pos = pos;
    this.end = end;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  #byte(): number {
    if (this.pos >= this.end) throw new RangeError('truncated varint');
    return this.buf[this.pos++]!;
  }

  /** A varint as a number; RangeError above 2^53 - 1 (a term, an index or a length never is). */
  number(): number {
    let b = this.#byte();
    if (b < 0x80) return b;
    let v = b & 0x7f;
    let scale = 0x80;
    for (let i = 1; i < 10; i++) {
      b = this.#byte();
      v += (b & 0x7f) * scale;
      if (b < 0x80) {
        if (v > Number.MAX_SAFE_INTEGER) throw new RangeError(`varint ${v} is above 2^53 - 1`);
        return v;
      }
      scale *= 0x80;
    }
    throw new RangeError('varint longer than 10 bytes');
  }

  /** A uint64 varint as a bigint (member ids: random 64-bit values). */
  uint64(): bigint {
    // Low 28 bits and the rest as numbers (both exact), joined once.
    let lo = 0;
    let shift = 0;
    let b = 0x80;
    for (; shift < 28 && b >= 0x80; shift += 7) {
      b = this.#byte();
      lo |= (b & 0x7f) << shift;
    }
    if (b < 0x80) return BigInt(lo >>> 0);
    let hi = 0;
    let scale = 1;
    for (let i = 0; i < 6 && b >= 0x80; i++) {
      b = this.#byte();
      hi += (b & 0x7f) * scale;
      scale *= 0x80;
    }
    if (b >= 0x80) throw new RangeError('varint longer than 10 bytes');
    return BigInt.asUintN(64, (BigInt(hi) << 28n) | BigInt(lo >>> 0));
  }

  /** An int32 varint (negative values take 10 bytes). */
  int32(): number {
    return Number(BigInt.asIntN(32, this.uint64()));
  }

  bool(): boolean {
    return this.number() !== 0;
  }

  /** A length-delimited field: returns its start; the reader moves past it. */
  lengthDelimited(): { start: number; end: number } {
    const len = this.number();
    const start = this.pos;
    if (start + len > this.end) throw new RangeError('length-delimited field past the end');
    this.pos = start + len;
    return { start, end: this.pos };
  }

  /** Skips a field of wire type `wire`. */
  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        while (this.#byte() >= 0x80);
        return;
      case WIRE_I64:
        this.pos += 8;
        break;
      case WIRE_LEN:
        this.lengthDelimited();
        return;
      case WIRE_I32:
        this.pos += 4;
        break;
      default:
        throw new RangeError(`unsupported wire type ${wire}`);
    }
    if (this.pos > this.end) throw new RangeError('field past the end');
  }
}
