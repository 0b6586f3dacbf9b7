/**
 * Record values of the `key` bucket: a marshalled mvccpb.KeyValue (see FORMAT.md).
 * A tombstone's value holds only the key. Pure module.
 */
import { KeyValue } from '../../proto/gen/etcd/kv.js';
import { smallVarintBytes, writeSmallVarint, writeVarint } from '../wal/proto-codec.js';

const EMPTY = Buffer.alloc(0);

/** Varint bytes of an int64 field's value (negative values take 10 bytes, as two's complement). */
function int64Bytes(v: bigint): number {
  if (v < 0n) return 10;
  if (v <= 0xffffffffn) return smallVarintBytes(Number(v));
  let n = 5;
  for (let rest = v >> 35n; rest > 0n; rest >>= 7n) n++;
  return n;
}

function checkInt64(v: bigint, field: string): void {
  if (BigInt.asIntN(64, v) !== v) throw new RangeError(`value provided for field ${field} of type int64 too large`);
}

/**
 * Marshals a record: sized first, then written into one buffer of exactly that size (the
 * value, often the largest part, is copied once). The bytes are the generated encoder's
 * (proto3: zero and empty fields left out, fields in number order; a unit test compares).
 */
export function encodeKeyValue(kv: KeyValue): Buffer {
  const { key, createRevision, modRevision, version, value, lease } = kv;
  checkInt64(createRevision, 'createRevision');
  checkInt64(modRevision, 'modRevision');
  checkInt64(version, 'version');
  checkInt64(lease, 'lease');
  let size = 0;
  if (key.length !== 0) size += 1 + smallVarintBytes(key.length) + key.length;
  if (createRevision !== 0n) size += 1 + int64Bytes(createRevision);
  if (modRevision !== 0n) size += 1 + int64Bytes(modRevision);
  if (version !== 0n) size += 1 + int64Bytes(version);
  if (value.length !== 0) size += 1 + smallVarintBytes(value.length) + value.length;
  if (lease !== 0n) size += 1 + int64Bytes(lease);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  if (key.length !== 0) at = bytesField(out, at, 10, key);
  if (createRevision !== 0n) at = int64Field(out, at, 16, createRevision);
  if (modRevision !== 0n) at = int64Field(out, at, 24, modRevision);
  if (version !== 0n) at = int64Field(out, at, 32, version);
  if (value.length !== 0) at = bytesField(out, at, 42, value);
  if (lease !== 0n) at = int64Field(out, at, 48, lease);
  if (at !== size) throw new Error(`kv-codec: wrote ${at} bytes of a ${size}-byte record`);
  return out;
}

function bytesField(out: Buffer, at: number, tag: number, bytes: Uint8Array): number {
  out[at++] = tag;
  at = writeSmallVarint(out, at, bytes.length);
  out.set(bytes, at);
  return at + bytes.length;
}

function int64Field(out: Buffer, at: number, tag: number, v: bigint): number {
  out[at++] = tag;
  return writeVarint(out, at, BigInt.asUintN(64, v));
}

/**
 * Unmarshals a record. Key and value are views into `value` (never copied; records are not
 * mutated). Falls back to the generic decoder for anything unusual (numbers above 2^53,
 * unexpected wire types).
 */
export function decodeKeyValue(value: Buffer): KeyValue {
  return fastDecode(value) ?? KeyValue.decode(value);
}

/** Varint at `pos` as a number, or -1 if longer than 7 bytes (≥ 2^49) or truncated. */
function smallVarint(buf: Buffer, pos: number): number {
  let v = 0;
  let mul = 1;
  for (let i = 0; i < 7 && pos + i < buf.length; i++) {
    const byte = buf[pos + i];
    v += (byte & 0x7f) * mul;
    if ((byte & 0x80) === 0) return v;
    mul *= 128;
  }
  return -1;
}

function varintLength(buf: Buffer, pos: number): number {
  let n = 0;
  while (pos + n < buf.length && (buf[pos + n] & 0x80) !== 0) n++;
  return n + 1;
}

function fastDecode(buf: Buffer): KeyValue | undefined {
  let key: Buffer = EMPTY;
  let value: Buffer = EMPTY;
  let createRevision = 0n;
  let modRevision = 0n;
  let version = 0n;
  let lease = 0n;
  let pos = 0;
  while (pos < buf.length) {
    const tag = buf[pos++];
    if (tag === 0x0a || tag === 0x2a) {
      const len = smallVarint(buf, pos);
      if (len < 0) return undefined;
      pos += varintLength(buf, pos);
      if (pos + len > buf.length) return undefined;
      const view = buf.subarray(pos, pos + len);
      if (tag === 0x0a) key = view;
      else value = view;
      pos += len;
    } else if (tag === 0x10 || tag === 0x18 || tag === 0x20 || tag === 0x30) {
      const v = smallVarint(buf, pos);
      if (v < 0) return undefined;
      pos += varintLength(buf, pos);
      if (tag === 0x10) createRevision = BigInt(v);
      else if (tag === 0x18) modRevision = BigInt(v);
      else if (tag === 0x20) version = BigInt(v);
      else lease = BigInt(v);
    } else {
      return undefined; // anything else (also a negative or huge number): the generic decoder
    }
  }
  if (pos !== buf.length) return undefined;
  return { key, createRevision, modRevision, version, value, lease };
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

/** What recovery needs of a record: its key (a view into the record) and live-record fields. */
export interface RecordMeta {
  readonly key: Buffer;
  readonly createRevision: number;
  readonly version: number;
  readonly lease: bigint;
}

/**
 * Reads key, create_revision, version and lease of a marshalled record without copying or
 * decoding the value (it is skipped by its length). Throws on a malformed record.
 */
export function peekRecordMeta(buf: Buffer): RecordMeta {
  let pos = 0;
  let key: Buffer | undefined;
  let createRevision = 0;
  let version = 0;
  let lease = 0n;
  const varint = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (pos >= buf.length) throw new Error('mvcc: truncated record');
      const byte = buf[pos++];
      v += (byte & 0x7f) * mul;
      if ((byte & 0x80) === 0) return v;
      mul *= 128;
      if (mul > 2 ** 63) throw new Error('mvcc: varint too long in record');
    }
  };
  const varint64 = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      if (pos >= buf.length) throw new Error('mvcc: truncated record');
      const byte = buf[pos++];
      v |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return BigInt.asIntN(64, v);
      shift += 7n;
      if (shift > 63n) throw new Error('mvcc: varint too long in record');
    }
  };
  while (pos < buf.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (field === 6 && wire === 0) {
      lease = varint64();
    } else if (wire === 0) {
      const v = varint();
      if (field === 2) createRevision = v;
      else if (field === 4) version = v;
    } else if (wire === 2) {
      const len = varint();
      if (pos + len > buf.length) throw new Error('mvcc: truncated record');
      if (field === 1) key = buf.subarray(pos, pos + len);
      pos += len;
    } else if (wire === 1) {
      pos += 8;
    } else if (wire === 5) {
      pos += 4;
    } else {
      throw new Error(`mvcc: unexpected wire type ${wire} in record`);
    }
  }
  return { key: key ?? EMPTY, createRevision, version, lease };
}
