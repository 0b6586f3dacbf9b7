/**
 * The records a front-end thread and the core thread exchange (frontend/README.md), and their
 * byte layout: every record of one event-loop turn is written into one buffer, which is then
 * transferred (not copied) to the other thread.
 *
 * Layout of a record (little endian):
 *
 *   kind u8 | conn u32 | stream u32 | arg u32 | length u32 | payload (length bytes)
 *
 * `conn` names a client connection (numbered by its front end), `stream` an HTTP/2 stream id on
 * it (0 for a piped connection), `arg` is kind-specific (a flag, an RST code, a byte count).
 * A `Stream` record's payload is its request header list (`encodeHeaders`).
 *
 * Pure: no I/O, no threads.
 */
import type { HeaderField } from '../transport/header-block-codec.js';

/** Front end → core. */
export const FromFront = {
  /** A gRPC connection opened (its client identity is the turn's extra `arg`). */
  OpenGrpc: 1,
  /** A connection whose bytes are piped (HTTP/1.1: arg 1; HTTP/2 that is not gRPC: arg 2); identity in extra `stream`. */
  OpenPiped: 2,
  /** A request stream opened; payload: its headers. */
  Stream: 3,
  /** Request DATA of a stream; payload: the bytes. */
  Data: 4,
  /** The client's END_STREAM. */
  EndIn: 5,
  /** The client (or its connection) reset the stream; arg: the RST code. */
  ResetIn: 6,
  /** arg bytes written by the core have left the front end's queue for the socket (stream 0: a piped connection). */
  Ack: 7,
  /** The connection is gone. */
  Closed: 8,
  /** Bytes read from a piped connection. */
  PipedData: 9,
  /** A piped connection's client ended its side. */
  PipedEnd: 10,
  /** arg serializable Ranges were answered by the front end itself (read replica). */
  LocalReads: 11,
  /** Serializable Ranges are asked for: send a read replica's image and feed it (replica-demand.ts). */
  ReplicaWanted: 12,
  /** None for a while: the replica is dropped, stop feeding it. */
  ReplicaIdle: 13,
  /** Counts and gauges of the watch streams the front end serves itself; payload: watch-report.ts. */
  WatchReport: 14,
  /** A call on the thread ended by a fault inside the member (logged there); payload: its method path (utf8). */
  Fault: 15,
} as const;

/** Core → front end. */
export const FromCore = {
  /** Response headers; arg 1: end of stream; payload: the encoded header block. */
  Respond: 20,
  /** Response DATA; payload: the bytes. */
  Write: 21,
  /** The trailer block (END_STREAM after every byte written). */
  Trailers: 22,
  /** RST_STREAM; arg: the code. */
  Reset: 23,
  /** arg bytes of request DATA consumed: the front end may grant them back to the client. */
  Consumed: 24,
  /** Bytes to write to a piped connection. */
  PipedWrite: 25,
  /** End our side of a piped connection (after every byte written). */
  PipedEnd: 26,
  /** Drop a piped connection. */
  PipedDestroy: 27,
  /** Stop reading a piped connection (the core's reader is full). */
  PipedPause: 28,
  /** Read it again. */
  PipedResume: 29,
  /** Read replica (replica-records.ts): a new image's key index; payload: the index bytes. */
  ReplicaImage: 30,
  /** A change of the image the backend does not hold yet; payload: the change. */
  ReplicaHold: 31,
  /** A write transaction ended; payload: the change. */
  ReplicaChange: 32,
  /** Every change up to a revision is in the backend; payload: the revision. */
  ReplicaRelease: 33,
  /** The store compacted; payload: the revision. */
  ReplicaCompact: 34,
  /** Header fields and the auth switch; payload: the context. */
  ReplicaContext: 35,
} as const;

const HEAD = 17;
const INITIAL = 16 * 1024;

/** Writes one turn's records; `take()` hands the buffer over and starts a new one. */
export class RecordWriter {
  #buf: Buffer = Buffer.allocUnsafeSlow(INITIAL);
  #at = 0;
  /** Structured-clone values sent with the turn (client identities), referenced by records. */
  #extras: unknown[] = [];

  get empty(): boolean {
    return this.#at === 0 && this.#extras.length === 0;
  }

  /** Adds a record; `payload` is copied into the turn's buffer. */
  record(kind: number, conn: number, stream: number, arg: number, payload?: Uint8Array): void {
    const length = payload === undefined ? 0 : payload.length;
    this.#reserve(HEAD + length);
    const b = this.#buf;
    let at = this.#at;
    b[at] = kind;
    b.writeUInt32LE(conn, at + 1);
    b.writeUInt32LE(stream, at + 5);
    b.writeUInt32LE(arg >>> 0, at + 9);
    b.writeUInt32LE(length, at + 13);
    at += HEAD;
    if (payload !== undefined) b.set(payload, at);
    this.#at = at + length;
  }

  /** Adds a structured-clone value to the turn; returns its index for a record's `arg`. */
  extra(value: unknown): number {
    return this.#extras.push(value) - 1;
  }

  /** The turn's buffer (to transfer), its used length and extras; the writer starts over. */
  take(): { readonly buffer: ArrayBuffer; readonly length: number; readonly extras: readonly unknown[] } {
    const taken = { buffer: this.#buf.buffer as ArrayBuffer, length: this.#at, extras: this.#extras };
    this.#buf = Buffer.allocUnsafeSlow(INITIAL);
    this.#at = 0;
    this.#extras = [];
    return taken;
  }

  #reserve(n: number): void {
    if (this.#at + n <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.#at + n) size *= 2;
    const next = Buffer.allocUnsafeSlow(size);
    this.#buf.copy(next, 0, 0, this.#at);
    this.#buf = next;
  }
}

/** One record as read; `payload` is a view of the turn's buffer (copy it to keep it past the turn). */
export interface RecordView {
  kind: number;
  conn: number;
  stream: number;
  arg: number;
  payload: Buffer;
}

/** Calls `each` for every record of a turn's buffer, in order; throws on a cut record. */
export function readRecords(buffer: ArrayBuffer, length: number, each: (r: RecordView) => void): void {
  const b = Buffer.from(buffer, 0, length);
  const view: RecordView = { kind: 0, conn: 0, stream: 0, arg: 0, payload: b.subarray(0, 0) };
  let at = 0;
  while (at < length) {
    if (at + HEAD > length) throw new Error(`cut record header at ${at} of ${length}`);
    const size = b.readUInt32LE(at + 13);
    if (at + HEAD + size > length) throw new Error(`cut record payload at ${at} of ${length}`);
    view.kind = b[at]!;
    view.conn = b.readUInt32LE(at + 1);
    view.stream = b.readUInt32LE(at + 5);
    view.arg = b.readUInt32LE(at + 9);
    view.payload = b.subarray(at + HEAD, at + HEAD + size);
    at += HEAD + size;
    each(view);
  }
}

/**
 * A header list as a `Stream` record's payload, written against the previous list sent on the
 * same connection (`previous`): a client sends nearly the same headers on every call (only
 * `:path`, `grpc-timeout` and a few others change), so a field equal to the previous list's
 * field at the same position is one byte and is read back as the same strings.
 *
 * Layout: count u16, then per field a tag u8 — 0: the previous list's field at this position;
 * 1: a new field, never-index flag u8, then name and value (u32 length + UTF-8 each).
 */
export function encodeHeaders(fields: readonly HeaderField[], previous: readonly HeaderField[] = []): Buffer {
  let size = 2;
  const same: boolean[] = new Array<boolean>(fields.length);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const p = previous[i];
    same[i] = p !== undefined && p.name === f.name && p.value === f.value && p.neverIndex === f.neverIndex;
    size += same[i] ? 1 : 10 + Buffer.byteLength(f.name) + Buffer.byteLength(f.value);
  }
  const b = Buffer.allocUnsafe(size);
  b.writeUInt16LE(fields.length, 0);
  let at = 2;
  for (let i = 0; i < fields.length; i++) {
    if (same[i]) {
      b[at++] = 0;
      continue;
    }
    const f = fields[i]!;
    b[at++] = 1;
    b[at++] = f.neverIndex ? 1 : 0;
    for (const text of [f.name, f.value]) {
      const n = b.write(text, at + 4);
      b.writeUInt32LE(n, at);
      at += 4 + n;
    }
  }
  return b;
}

/** Reads `encodeHeaders`' payload against the same `previous` list; throws on a malformed one. */
export function decodeHeaders(b: Buffer, previous: readonly HeaderField[] = []): HeaderField[] {
  const count = b.readUInt16LE(0);
  const fields: HeaderField[] = new Array<HeaderField>(count);
  let at = 2;
  const text = (): string => {
    const n = b.readUInt32LE(at);
    const s = b.toString('utf8', at + 4, at + 4 + n);
    at += 4 + n;
    return s;
  };
  for (let i = 0; i < count; i++) {
    const tag = b[at++];
    if (tag === 0) {
      const p = previous[i];
      if (p === undefined) throw new Error(`header field ${i} refers to a previous list of ${previous.length}`);
      fields[i] = p;
      continue;
    }
    const neverIndex = b[at++] === 1;
    const name = text();
    const value = text();
    fields[i] = { name, value, neverIndex };
  }
  return fields;
}
