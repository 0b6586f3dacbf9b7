/**
 * Revisions and their on-disk encoding (see FORMAT.md).
 *
 * A revision is (main, sub): `main` is the store revision of a write transaction (bigint),
 * `sub` numbers the changes inside it from 0. `sub` is a plain number: it is bounded by the
 * number of operations in one transaction, far below 2^32.
 *
 * Backend key in the `key` bucket: main (8 bytes BE) '_' sub (8 bytes BE), 17 bytes, plus a
 * trailing 't' (18 bytes) for a tombstone. Such keys sort by (main, sub) under unsigned byte
 * order. Pure module: no I/O.
 */

export interface Revision {
  readonly main: bigint;
  readonly sub: number;
}

export const REVISION_KEY_LENGTH = 17;
const SEPARATOR = 0x5f; // '_'
const TOMBSTONE_MARK = 0x74; // 't'

/** Orders revisions by main, then sub. */
export function compareRevisions(a: Revision, b: Revision): number {
  if (a.main !== b.main) return a.main < b.main ? -1 : 1;
  return a.sub - b.sub;
}

/** The backend key of a record: 17 bytes, or 18 with the tombstone mark. */
export function encodeRevisionKey(main: bigint, sub: number, tombstone: boolean): Buffer {
  const out = Buffer.allocUnsafe(tombstone ? REVISION_KEY_LENGTH + 1 : REVISION_KEY_LENGTH);
  out.writeBigUInt64BE(main, 0);
  out[8] = SEPARATOR;
  out.writeUInt32BE(0, 9);
  out.writeUInt32BE(sub, 13);
  if (tombstone) out[REVISION_KEY_LENGTH] = TOMBSTONE_MARK;
  return out;
}

/** encodeRevisionKey for a main revision held as a number (exact below 2^53). */
export function revisionKeyOf(main: number, sub: number, tombstone: boolean): Buffer {
  const out = Buffer.allocUnsafe(tombstone ? REVISION_KEY_LENGTH + 1 : REVISION_KEY_LENGTH);
  out.writeUInt32BE(Math.floor(main / 0x100000000), 0);
  out.writeUInt32BE(main >>> 0, 4);
  out[8] = SEPARATOR;
  out.writeUInt32BE(0, 9);
  out.writeUInt32BE(sub, 13);
  if (tombstone) out[REVISION_KEY_LENGTH] = TOMBSTONE_MARK;
  return out;
}

/** The smallest backend key of main revision `main` (sub 0, no mark): a scan bound. */
export function revisionBound(main: bigint): Buffer {
  return encodeRevisionKey(main, 0, false);
}

/** Main revision of a backend key. */
export function mainOfKey(key: Buffer): bigint {
  return key.readBigUInt64BE(0);
}

/** Sub revision of a backend key (throws on a sub that does not fit in 32 bits: corrupt data). */
export function subOfKey(key: Buffer): number {
  return subOfKeyAt(key, 0);
}

export function isTombstoneKey(key: Buffer): boolean {
  return isTombstoneKeyAt(key, 0);
}

/** Main revision of the backend key starting at `at` in `key` (bulk reads hand keys out with a prefix), as a number. */
export function mainOfKeyAt(key: Buffer, at: number): number {
  const high = key.readUInt32BE(at);
  if (high >= 0x200000) throw new Error('mvcc: main revision beyond 2^53 in backend key');
  return high * 0x100000000 + key.readUInt32BE(at + 4);
}

/** subOfKey for the backend key starting at `at` in `key`. */
export function subOfKeyAt(key: Buffer, at: number): number {
  if (key.readUInt32BE(at + 9) !== 0) throw new Error('mvcc: sub revision out of range in backend key');
  return key.readUInt32BE(at + 13);
}

/** isTombstoneKey for the backend key starting at `at` in `key`. */
export function isTombstoneKeyAt(key: Buffer, at: number): boolean {
  return key.length - at === REVISION_KEY_LENGTH + 1 && key[at + REVISION_KEY_LENGTH] === TOMBSTONE_MARK;
}

/** Checks the shape of a backend key of the `key` bucket. */
export function isRevisionKey(key: Buffer): boolean {
  return (key.length === REVISION_KEY_LENGTH || isTombstoneKey(key)) && key[8] === SEPARATOR;
}

/** A single bigint naming a revision, for sets and maps: main·2^32 + sub. */
export function revisionId(main: bigint, sub: number): bigint {
  return (main << 32n) | BigInt(sub);
}
