/**
 * Record values of the `key` bucket: a marshalled mvccpb.KeyValue (see FORMAT.md).
 * A tombstone's value holds only the key. Pure module.
 */
import { KeyValue } from '../../proto/gen/etcd/kv.js';

const EMPTY = Buffer.alloc(0);

/** Marshals a record (no copy of the encoder's output). */
export function encodeKeyValue(kv: KeyValue): Buffer {
  const u8 = KeyValue.encode(kv).finish();
  return Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}

export function decodeKeyValue(value: Buffer): KeyValue {
  return KeyValue.decode(value);
}

/** The value stored for a deletion of `key`: a KeyValue with only the key set. */
export function encodeTombstone(key: Buffer): Buffer {
  return encodeKeyValue({ key, createRevision: 0n, modRevision: 0n, version: 0n, value: EMPTY, lease: 0n });
}

/** The Event.kv of a deletion: only key and mod_revision (the deletion revision) are set. */
export function deletionKeyValue(key: Buffer, revision: bigint): KeyValue {
  return { key, createRevision: 0n, modRevision: revision, version: 0n, value: EMPTY, lease: 0n };
}

/** A copy of `kv` without its value (keys_only reads). */
export function withoutValue(kv: KeyValue): KeyValue {
  return { key: kv.key, createRevision: kv.createRevision, modRevision: kv.modRevision, version: kv.version, value: EMPTY, lease: kv.lease };
}

/**
 * The user key of a marshalled record without decoding the rest (a view into `value`).
 * Fast path for records whose first field is the key (what we write); others are decoded.
 */
export function peekKey(value: Buffer): Buffer {
  if (value.length > 1 && value[0] === 0x0a) {
    let len = 0;
    let shift = 0;
    let pos = 1;
    while (pos < value.length && shift <= 28) {
      const byte = value[pos++];
      len |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) {
        if (len >= 0 && pos + len <= value.length) return value.subarray(pos, pos + len);
        break;
      }
      shift += 7;
    }
  }
  return KeyValue.decode(value).key;
}
