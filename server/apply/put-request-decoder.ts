/**
 * PutRequest's decoder for the paths a put's value travels: key and value are views into the
 * bytes (the generated decoder copies both — for a large value, a copy of the whole request and
 * its garbage). Used on a client's request (its buffer belongs to the call alone) and on a log
 * entry applied by a member that did not propose it (`decodeEntryRequest`; the log's payloads
 * are never written to once stored). Anything unusual — an unknown field, another wire type, a
 * lease that does not fit 7 varint bytes — goes to the generated decoder, which also reports
 * the errors.
 */
import { PutRequest } from '../../proto/gen/etcd/rpc.js';
import { InternalRequest, RequestHeader } from '../../proto/gen/kvstore/internal.js';

const EMPTY = Buffer.alloc(0);

/** Varint at `pos`: [value, next position], or undefined past 7 bytes (≥ 2^49) or the end. */
function varint(buf: Buffer, pos: number): [number, number] | undefined {
  let v = 0;
  let mul = 1;
  for (let i = 0; i < 7 && pos + i < buf.length; i++) {
    const byte = buf[pos + i]!;
    v += (byte & 0x7f) * mul;
    if (byte < 0x80) return [v, pos + i + 1];
    mul *= 0x80;
  }
  return undefined;
}

export function decodePutRequest(bytes: Buffer): PutRequest {
  return fastDecode(bytes) ?? PutRequest.decode(bytes);
}

function fastDecode(buf: Buffer): PutRequest | undefined {
  const m: PutRequest = { key: EMPTY, value: EMPTY, lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false };
  let pos = 0;
  while (pos < buf.length) {
    const tag = buf[pos++]!;
    if (tag === 10 || tag === 18) {
      const len = varint(buf, pos);
      if (len === undefined || len[1] + len[0] > buf.length) return undefined;
      const view = buf.subarray(len[1], len[1] + len[0]);
      if (tag === 10) m.key = view;
      else m.value = view;
      pos = len[1] + len[0];
      continue;
    }
    const v = varint(buf, pos);
    if (v === undefined) return undefined;
    pos = v[1];
    switch (tag) {
      case 24:
        m.lease = BigInt(v[0]);
        break;
      case 32:
        m.prevKv = v[0] !== 0;
        break;
      case 40:
        m.ignoreValue = v[0] !== 0;
        break;
      case 48:
        m.ignoreLease = v[0] !== 0;
        break;
      default:
        return undefined;
    }
  }
  return m;
}

/**
 * A log entry's request (InternalRequest): a put — the header (field 1) and the put (field 2),
 * nothing else — is read with `decodePutRequest`; every other entry by the generated decoder.
 */
export function decodeEntryRequest(data: Buffer): InternalRequest {
  return fastEntry(data) ?? InternalRequest.decode(data);
}

function fastEntry(buf: Buffer): InternalRequest | undefined {
  let header: RequestHeader | undefined;
  let put: PutRequest | undefined;
  let pos = 0;
  while (pos < buf.length) {
    const tag = buf[pos++]!;
    if (tag !== 10 && tag !== 18) return undefined;
    const len = varint(buf, pos);
    if (len === undefined || len[1] + len[0] > buf.length) return undefined;
    const body = buf.subarray(len[1], len[1] + len[0]);
    pos = len[1] + len[0];
    if (tag === 10) header = RequestHeader.decode(body);
    else put = decodePutRequest(body);
  }
  return put === undefined ? undefined : { header, request: { $case: 'put', value: put } };
}
