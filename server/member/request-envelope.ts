/**
 * A proposal's log entry bytes: the InternalRequest envelope (proto/kvstore/internal.proto)
 * — `header` (field 1) and the request's oneof field — built once.
 *
 * When the client's own encoding of a KV write is at hand (`raw`, see api/raw-request.ts),
 * the envelope is the header followed by the oneof field's tag, the length and those bytes,
 * so the request is never encoded again; the result decodes exactly like
 * `InternalRequest.encode({ header, request })` (field order and the encoding of the
 * header are the generated encoder's). Any other request goes through the generated encoder.
 *
 * While auth is enabled the header also names the caller (`auth_revision` field 3, then
 * `username` field 4, in the generated encoder's order); without a caller both are left out,
 * so the bytes are those of a header without the fields (older entries decode the same way).
 */
import { InternalRequest, type RequestHeader } from '../../proto/gen/kvstore/internal.js';
import type { AuthInfo } from '../auth/auth-store.js';
import { smallVarintBytes, uint64FieldBytes, writeSmallVarint, writeUint64Field } from '../wal/proto-codec.js';

export type Request = NonNullable<InternalRequest['request']>;

/** Oneof field numbers (internal.proto) of the requests that may travel as raw bytes. */
const RAW_FIELDS: Partial<Record<Request['$case'], number>> = { put: 2, deleteRange: 3, txn: 4 };

const LEN = 2;

/** Builds the entry bytes of this member's proposals. */
export class EnvelopeEncoder {
  readonly #memberId: bigint;

  constructor(memberId: bigint) {
    this.#memberId = memberId;
  }

  /** The header of a proposal with request id `id`, naming `auth`'s caller when given. */
  header(id: bigint, auth?: AuthInfo): RequestHeader {
    if (auth === undefined) return { id, memberId: this.#memberId, authRevision: 0n, username: '' };
    return { id, memberId: this.#memberId, authRevision: BigInt(auth.revision), username: auth.username };
  }

  /** The entry bytes of `request` with header `header` (from `header()`); `raw` is the client's encoding of `request.value`. */
  encode(header: RequestHeader, request: Request, raw?: Uint8Array): Buffer {
    const field = raw === undefined ? undefined : RAW_FIELDS[request.$case];
    if (raw === undefined || field === undefined) {
      const bytes = InternalRequest.encode({ header, request }).finish();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    const { id, username, authRevision } = header;
    const nameLen = username === '' ? 0 : Buffer.byteLength(username);
    const nameBytes = nameLen === 0 ? 0 : 1 + smallVarintBytes(nameLen) + nameLen;
    const headerLen = uint64FieldBytes(id) + uint64FieldBytes(this.#memberId) + uint64FieldBytes(authRevision) + nameBytes;
    const size = 1 + smallVarintBytes(headerLen) + headerLen + 1 + smallVarintBytes(raw.length) + raw.length;
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    out[at++] = (1 << 3) | LEN;
    at = writeSmallVarint(out, at, headerLen);
    at = writeUint64Field(out, at, 1, id);
    at = writeUint64Field(out, at, 2, this.#memberId);
    at = writeUint64Field(out, at, 3, authRevision);
    if (nameLen > 0) {
      out[at++] = (4 << 3) | LEN;
      at = writeSmallVarint(out, at, nameLen);
      at += out.write(username, at, 'utf8');
    }
    out[at++] = (field << 3) | LEN;
    at = writeSmallVarint(out, at, raw.length);
    out.set(raw, at);
    return out;
  }
}
