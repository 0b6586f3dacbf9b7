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
import { ProtoReader } from '../wal/proto-reader.js';

const EMPTY = Buffer.alloc(0);

export function decodePutRequest(bytes: Buffer): PutRequest {
  return fastDecode(bytes) ?? PutRequest.decode(bytes);
}

/** The fields by tag (field number and wire type); undefined for anything else, or broken bytes. */
function fastDecode(buf: Buffer): PutRequest | undefined {
  const m: PutRequest = { key: EMPTY, value: EMPTY, lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false };
  const r = new ProtoReader(buf);
  try {
    while (!r.done()) {
      switch (r.number()) {
        case 10: {
          const f = r.lengthDelimited();
          m.key = buf.subarray(f.start, f.end);
          break;
        }
        case 18: {
          const f = r.lengthDelimited();
          m.value = buf.subarray(f.start, f.end);
          break;
        }
        case 24:
          // A negative lease is a 10-byte varint above 2^53: number() refuses it, the generated decoder reads it.
          m.lease = BigInt(r.number());
          break;
        case 32:
          m.prevKv = r.bool();
          break;
        case 40:
          m.ignoreValue = r.bool();
          break;
        case 48:
          m.ignoreLease = r.bool();
          break;
        default:
          return undefined;
      }
    }
  } catch {
    return undefined;
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
  const r = new ProtoReader(buf);
  try {
    while (!r.done()) {
      const tag = r.number();
      if (tag !== 10 && tag !== 18) return undefined;
      const f = r.lengthDelimited();
      const body = buf.subarray(f.start, f.end);
      if (tag === 10) header = RequestHeader.decode(body);
      else put = decodePutRequest(body);
    }
  } catch {
    return undefined;
  }
  return put === undefined ? undefined : { header, request: { $case: 'put', value: put } };
}
