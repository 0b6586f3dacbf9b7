/**
 * A raw HTTP/2 client for the connection-rule tests: an `H2Connection` on an in-memory socket,
 * fed frames built byte by byte (h2-test-frames.ts), with what it wrote back split into frames.
 * The connection's clock is the test's (`clock.ms`), so flood bounds are tested without time.
 */
import hpack from 'hpack.js';
import { Duplex } from 'node:stream';
import { H2Connection, type H2ConnectionOptions } from '../../../server/transport/h2/h2-connection.js';
import type { H2Stream } from '../../../server/transport/h2/h2-stream.js';
import { FrameFlag, FrameType } from '../../../server/transport/http2-frames.js';
import { HTTP2_PREFACE } from '../../../server/transport/protocol-sniff.js';
import { clientEncoder, frame, splitFrames, type Fields, type Frame } from './h2-test-frames.js';

/** A socket that keeps what is written to it; its input is given with `conn.receive`. */
class MemorySocket extends Duplex {
  readonly written: Buffer[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.written.push(chunk);
    done();
  }
  override _read(): void {}
}

export const GET: Fields = [
  [':method', 'GET'],
  [':scheme', 'http'],
  [':path', '/'],
  [':authority', 'localhost'],
];

export interface RawPeer {
  readonly conn: H2Connection;
  readonly socket: MemorySocket;
  readonly streams: H2Stream[];
  readonly clock: { ms: number };
  /** Gives the connection these bytes (frames) as one chunk. */
  send(...frames: Buffer[]): void;
  /** A HEADERS frame (END_HEADERS, plus `flags`) with `fields` encoded on this client's HPACK context. */
  headers(id: number, fields: Fields, flags?: number): Buffer;
  /** An HPACK block on this client's context. */
  block(fields: Fields): Buffer;
  /** The frames written back so far, after the turn's write (the server's opening SETTINGS and WINDOW_UPDATE left out). */
  answer(): Promise<Frame[]>;
  /** The socket was ended or destroyed by the connection. */
  readonly ended: boolean;
}

/** Waits for the connection's end-of-turn write. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * A connection after the client's preface and an empty SETTINGS; `onStream` (default: keep the
 * stream, answer nothing) sees every stream. Later frames are the test's.
 */
export function rawPeer(options: H2ConnectionOptions = {}, onStream?: (s: H2Stream, peer: RawPeer) => void): RawPeer {
  const socket = new MemorySocket();
  const clock = { ms: 0 };
  const conn = new H2Connection(socket, { now: () => clock.ms, ...options });
  const encode = clientEncoder();
  const streams: H2Stream[] = [];
  let opening = -1;
  const peer: RawPeer = {
    conn,
    socket,
    streams,
    clock,
    send: (...frames) => conn.receive(Buffer.concat(frames)),
    block: (fields) => encode(fields),
    headers: (id, fields, flags = 0) => frame(FrameType.Headers, FrameFlag.EndHeaders | flags, id, encode(fields)),
    async answer() {
      await turn();
      const all = splitFrames(Buffer.concat(socket.written));
      // The opening: our SETTINGS, the connection WINDOW_UPDATE, the ACK of the client's SETTINGS.
      if (opening < 0) opening = all.findIndex((f) => f.type === FrameType.Settings && (f.flags & FrameFlag.Ack) !== 0) + 1;
      return all.slice(opening);
    },
    get ended() {
      return socket.writableEnded || socket.destroyed;
    },
  };
  conn.onStream = (s) => {
    streams.push(s);
    onStream?.(s, peer);
  };
  conn.receive(Buffer.concat([HTTP2_PREFACE, frame(FrameType.Settings, 0, 0)]));
  return peer;
}

/** The error code of the RST_STREAM on `streamId` among `frames` (undefined: none). */
export function resetCode(frames: readonly Frame[], streamId: number): number | undefined {
  const f = frames.find((x) => x.type === FrameType.RstStream && x.streamId === streamId);
  return f?.payload.readUInt32BE(0);
}

/** The error code of the GOAWAY among `frames` (undefined: none). */
export function goAwayCode(frames: readonly Frame[]): number | undefined {
  const f = frames.find((x) => x.type === FrameType.GoAway);
  return f?.payload.readUInt32BE(4);
}

/** The last stream id of the GOAWAY among `frames`. */
export function goAwayLastStream(frames: readonly Frame[]): number | undefined {
  return frames.find((x) => x.type === FrameType.GoAway)?.payload.readUInt32BE(0);
}

export function u32(...values: number[]): Buffer {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, 4 * i));
  return b;
}

/** PRIORITY payload: dependency (exclusive bit clear) and weight. */
export function priority(dependsOn: number, weight = 16): Buffer {
  const b = Buffer.alloc(5);
  b.writeUInt32BE(dependsOn, 0);
  b[4] = weight;
  return b;
}

/** The fields of a header block we sent (table-free or not: a fresh decoder per block is enough for ours). */
export function decodeAll(block: Buffer): [string, string][] {
  const d = hpack.decompressor.create({ table: { maxSize: 4096 } });
  d.write(block);
  d.execute();
  const out: [string, string][] = [];
  for (let h = d.read(); h !== null; h = d.read()) out.push([h.name, h.value]);
  return out;
}
