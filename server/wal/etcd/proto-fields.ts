/**
 * A minimal protobuf field reader for the few etcd messages an etcd-format WAL holds
 * (walpb.Record, raftpb.Entry/HardState/ConfChange, walpb.Snapshot, etcdserverpb.Metadata).
 * Varints are read as bigint (ids are uint64); unknown fields are skipped; a malformed message
 * throws RangeError. Pure.
 */

export interface ProtoFields {
  /** Varint fields by number (the last occurrence wins, as protobuf's merge rule for scalars). */
  readonly varints: ReadonlyMap<number, bigint>;
  /** Length-delimited fields by number (last occurrence). */
  readonly bytes: ReadonlyMap<number, Buffer>;
}

function readVarint(buf: Buffer, at: number): [bigint, number] {
  let v = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length && shift < 70n; i++) {
    const b = buf[i]!;
    v |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [v & 0xffffffffffffffffn, i + 1];
    shift += 7n;
  }
  throw new RangeError(`protobuf: truncated varint at ${at}`);
}

export function readFields(buf: Buffer): ProtoFields {
  const varints = new Map<number, bigint>();
  const bytes = new Map<number, Buffer>();
  let at = 0;
  while (at < buf.length) {
    const [key, next] = readVarint(buf, at);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    at = next;
    if (wire === 0) {
      const [v, after] = readVarint(buf, at);
      varints.set(field, v);
      at = after;
    } else if (wire === 2) {
      const [len, after] = readVarint(buf, at);
      const end = after + Number(len);
      if (end > buf.length) throw new RangeError(`protobuf: field ${field} runs past the message end`);
      bytes.set(field, buf.subarray(after, end));
      at = end;
    } else if (wire === 1 || wire === 5) {
      at += wire === 1 ? 8 : 4;
    } else {
      throw new RangeError(`protobuf: unsupported wire type ${wire} (field ${field})`);
    }
  }
  if (at !== buf.length) throw new RangeError('protobuf: fixed-size field runs past the message end');
  return { varints, bytes };
}

/** A varint field as a number, refusing values above 2^53 − 1 (terms and indexes). */
export function smallField(f: ProtoFields, field: number): number {
  const v = f.varints.get(field) ?? 0n;
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`protobuf: field ${field} = ${v} is above 2^53 - 1`);
  return Number(v);
}
