/**
 * A proposal's log entry bytes: the InternalRequest envelope (proto/kvstore/internal.proto)
 * — `header` (field 1) and the request's oneof field — built once.
 *
 * When the client's own encoding of a KV write is at hand (`raw`, see api/raw-request.ts),
 * the envelope is the header followed by the oneof field's tag, the length and those bytes,
 * so the request is never encoded again; the result decodes exactly like
 * `InternalRequest.encode({ header, request })` (field order and the encoding of the
 * header are the generated encoder's). Any other request goes through the generated encoder.
 */
import { InternalRequest } from '../../proto/gen/kvstore/internal.js';

export type Request = NonNullable<InternalRequest['request']>;

/** Oneof field numbers (internal.proto) of the requests that may travel as raw bytes. */
const RAW_FIELDS: Partial<Record<Request['$case'], number>> = { put: 2, deleteRange: 3, txn: 4 };

const LEN = 2;

/** Builds the entry bytes of this member's proposals (the member id's encoding is computed once). */
export class EnvelopeEncoder {
  readonly #memberId: bigint;
  /** Tag and varint of field 2 (member_id), or empty for member id 0. */
  readonly #memberField: Buffer;

  constructor(memberId: bigint) {
    this.#memberId = memberId;
    this.#memberField = memberId === 0n ? Buffer.alloc(0) : varintField(2, memberId);
  }

  /** The entry bytes of `request` proposed with request id `id`; `raw` is the client's encoding of `request.value`. */
  encode(id: bigint, request: Request, raw?: Uint8Array): Buffer {
    const field = raw === undefined ? undefined : RAW_FIELDS[request.$case];
    if (raw === undefined || field === undefined) {
      const bytes = InternalRequest.encode({ header: { id, memberId: this.#memberId }, request }).finish();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    const idField = id === 0n ? EMPTY : varintField(1, id);
    const headerLen = idField.length + this.#memberField.length;
    const size = 1 + varintSize(headerLen) + headerLen + 1 + varintSize(raw.length) + raw.length;
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    out[at++] = (1 << 3) | LEN;
    at = writeVarint(out, at, headerLen);
    at += idField.copy(out, at);
    at += this.#memberField.copy(out, at);
    out[at++] = (field << 3) | LEN;
    at = writeVarint(out, at, raw.length);
    out.set(raw, at);
    return out;
  }
}

const EMPTY = Buffer.alloc(0);

/** Tag (wire type varint) and value of a uint64 field. */
function varintField(field: number, v: bigint): Buffer {
  // Two 32-bit halves as numbers: two bigint operations instead of two per 7 bits.
  let lo = Number(v & 0xffffffffn);
  let hi = Number(v >> 32n);
  const out = Buffer.allocUnsafe(11);
  out[0] = field << 3;
  let at = 1;
  while (hi > 0 || lo >= 0x80) {
    out[at++] = (lo & 0x7f) | 0x80;
    lo = (lo >>> 7) | ((hi & 0x7f) << 25);
    lo >>>= 0;
    hi >>>= 7;
  }
  out[at++] = lo;
  return out.subarray(0, at);
}

function varintSize(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

function writeVarint(out: Buffer, at: number, v: number): number {
  while (v >= 0x80) {
    out[at++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  out[at++] = v;
  return at;
}
