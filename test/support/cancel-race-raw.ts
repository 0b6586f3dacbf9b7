/**
 * Raw HTTP/2 clients for the "call cancelled right after it starts" race: each connection sends
 * the client preface, SETTINGS and one or more gRPC requests (HEADERS, maybe DATA) each followed
 * by RST_STREAM(CANCEL) on the same stream — in ONE write, or with the resets in a second write
 * a few ms later. The requests cover every kind of etcd method and the ones our own framing
 * once relayed to grpc-js (compressed, bidi with a `grpc-timeout`, other content types, unknown
 * paths), and an `:authority` holding the client URL (as etcdctl --cluster sends it).
 *
 * The client port sends an empty SETTINGS on the server's behalf and hands the connection on
 * only once the client has acknowledged it (transport/h2-opening.ts). So a connection either
 * acknowledges it at once, in its one write (the ACK ahead of the server's SETTINGS: the port
 * only looks for it), or waits for the server's first frame and then sends the ACK together with
 * its requests, as Go clients do.
 *
 * A connection then reads whatever the server answers for a short while and is closed by the
 * client; a reset or refused connection counts as an outcome, never as an exception: the test
 * judges the member afterwards, not these answers.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CLIENT_PREFACE, dataFrame, grpcMessage, headersFrame, rstStreamFrame, settingsAckFrame, settingsFrame, type Field,
} from './raw-h2-frames.js';

/** One kind of request: its path, extra or replaced header fields, and its first message. */
export interface RequestKind {
  readonly name: string;
  readonly path: string;
  /** The call's client half ends with its first message (unary, server stream). */
  readonly halfClose: boolean;
  readonly contentType?: string | null;
  readonly extra?: readonly Field[];
  readonly gzip?: boolean;
  /** `url`: `:authority` is `http(s)://host:port` instead of `host:port`. */
  readonly authority?: 'url';
  /** The protobuf of the first request message. */
  readonly message: Buffer;
}

const RANGE = Buffer.from([0x0a, 0x01, 0x6b]); // RangeRequest{key: "k"}
const PUT = Buffer.from([0x0a, 0x01, 0x6b, 0x12, 0x01, 0x76]); // PutRequest{key: "k", value: "v"}
const WATCH = Buffer.from([0x0a, 0x03, 0x0a, 0x01, 0x6b]); // WatchRequest{create_request: {key: "k"}}
const KEEPALIVE = Buffer.from([0x08, 0x01]); // LeaseKeepAliveRequest{ID: 1}
const EMPTY = Buffer.alloc(0);

export const REQUEST_KINDS: readonly RequestKind[] = [
  { name: 'Range', path: '/etcdserverpb.KV/Range', halfClose: true, message: RANGE },
  { name: 'Put', path: '/etcdserverpb.KV/Put', halfClose: true, message: PUT },
  { name: 'Watch', path: '/etcdserverpb.Watch/Watch', halfClose: false, message: WATCH },
  { name: 'LeaseKeepAlive', path: '/etcdserverpb.Lease/LeaseKeepAlive', halfClose: false, message: KEEPALIVE },
  { name: 'Snapshot', path: '/etcdserverpb.Maintenance/Snapshot', halfClose: true, message: EMPTY },
  { name: 'unknown method', path: '/etcdserverpb.KV/NoSuchMethod', halfClose: true, message: EMPTY },
  { name: 'unknown service', path: '/no.such.Service/Call', halfClose: false, message: EMPTY },
  { name: 'Range gzip', path: '/etcdserverpb.KV/Range', halfClose: true, gzip: true, message: RANGE },
  { name: 'Watch gzip', path: '/etcdserverpb.Watch/Watch', halfClose: false, gzip: true, message: WATCH },
  { name: 'Watch grpc-timeout 1m', path: '/etcdserverpb.Watch/Watch', halfClose: false, extra: [{ name: 'grpc-timeout', value: '1m' }], message: WATCH },
  { name: 'Watch grpc-timeout 1M', path: '/etcdserverpb.Watch/Watch', halfClose: false, extra: [{ name: 'grpc-timeout', value: '1M' }], message: WATCH },
  { name: 'LeaseKeepAlive grpc-timeout 1m', path: '/etcdserverpb.Lease/LeaseKeepAlive', halfClose: false, extra: [{ name: 'grpc-timeout', value: '1m' }], message: KEEPALIVE },
  { name: 'Range text/plain', path: '/etcdserverpb.KV/Range', halfClose: true, contentType: 'text/plain', message: RANGE },
  { name: 'Watch text/plain', path: '/etcdserverpb.Watch/Watch', halfClose: false, contentType: 'text/plain', message: WATCH },
  { name: 'Range no content-type', path: '/etcdserverpb.KV/Range', halfClose: true, contentType: null, message: RANGE },
  { name: 'unknown method text/plain', path: '/etcdserverpb.KV/NoSuchMethod', halfClose: true, contentType: 'text/plain', message: EMPTY },
  { name: 'Range, URL :authority', path: '/etcdserverpb.KV/Range', halfClose: true, authority: 'url', message: RANGE },
  { name: 'text/plain, URL :authority', path: '/etcdserverpb.KV/Range', halfClose: true, contentType: 'text/plain', authority: 'url', message: RANGE },
  { name: 'unknown method, URL :authority', path: '/etcdserverpb.KV/NoSuchMethod', halfClose: true, authority: 'url', message: EMPTY },
  { name: 'Watch grpc-timeout 1m, URL :authority', path: '/etcdserverpb.Watch/Watch', halfClose: false, authority: 'url', extra: [{ name: 'grpc-timeout', value: '1m' }], message: WATCH },
];

/**
 * How the frames of a connection are written (SETTINGS ACK included as described above):
 * - `headers+rst`: preface, SETTINGS, ACK, HEADERS, RST_STREAM — one write;
 * - `headers+data+rst`: preface, SETTINGS, ACK, HEADERS, DATA (the first message), RST_STREAM — one write;
 * - `streams+rst`: as above with `STREAMS_PER_CONNECTION` streams of consecutive kinds — one write;
 * - `answer+rst`: preface and SETTINGS; once the server's first frame is in, ACK, HEADERS, DATA, RST_STREAM — one write;
 * - `rst-later`: as `answer+rst` without the RST_STREAM, sent in a third write 0–3 ms later.
 */
export const SHAPES = ['headers+rst', 'headers+data+rst', 'streams+rst', 'answer+rst', 'rst-later'] as const;
export type Shape = (typeof SHAPES)[number];

export const STREAMS_PER_CONNECTION = 8;

/** Where and how to connect. `tls` holds the CA of the server certificate for an https member. */
export interface RawTarget {
  readonly host: string;
  readonly port: number;
  readonly tls?: { readonly ca: Buffer };
}

function requestFields(target: RawTarget, kind: RequestKind): Field[] {
  const scheme = target.tls === undefined ? 'http' : 'https';
  const hostPort = `${target.host}:${target.port}`;
  const fields: Field[] = [
    { name: ':method', value: 'POST' },
    { name: ':scheme', value: scheme },
    { name: ':path', value: kind.path },
    { name: ':authority', value: kind.authority === 'url' ? `${scheme}://${hostPort}` : hostPort },
  ];
  const contentType = kind.contentType === undefined ? 'application/grpc' : kind.contentType;
  if (contentType !== null) fields.push({ name: 'content-type', value: contentType });
  fields.push({ name: 'te', value: 'trailers' }, { name: 'user-agent', value: 'kvstore-cancel-race/1' });
  if (kind.gzip === true) fields.push({ name: 'grpc-encoding', value: 'gzip' }, { name: 'grpc-accept-encoding', value: 'identity,gzip' });
  return [...fields, ...(kind.extra ?? [])];
}

function opening(target: RawTarget, kind: RequestKind, streamId: number, withData: boolean): Buffer {
  const headers = headersFrame(streamId, requestFields(target, kind));
  if (!withData) return headers;
  return Buffer.concat([headers, dataFrame(streamId, grpcMessage(kind.message, kind.gzip === true), kind.halfClose)]);
}

/**
 * The writes of one connection: `first` once connected, `afterServer` once the server's first
 * bytes are in, `later` `delayMs` after that (0: the next turn of the event loop).
 */
export interface ConnectionWrites {
  readonly first: Buffer;
  readonly afterServer?: Buffer;
  readonly later?: Buffer;
  readonly delayMs: number;
}

export function connectionWrites(target: RawTarget, shape: Shape, kindIndex: number, delayMs: number): ConnectionWrites {
  const start = Buffer.concat([CLIENT_PREFACE, settingsFrame()]);
  const eager = Buffer.concat([start, settingsAckFrame()]);
  const kind = REQUEST_KINDS[kindIndex % REQUEST_KINDS.length]!;
  switch (shape) {
    case 'headers+rst':
      return { first: Buffer.concat([eager, opening(target, kind, 1, false), rstStreamFrame(1)]), delayMs };
    case 'headers+data+rst':
      return { first: Buffer.concat([eager, opening(target, kind, 1, true), rstStreamFrame(1)]), delayMs };
    case 'streams+rst': {
      const parts: Buffer[] = [eager];
      for (let s = 0; s < STREAMS_PER_CONNECTION; s++) {
        const id = 1 + 2 * s;
        parts.push(opening(target, REQUEST_KINDS[(kindIndex + s) % REQUEST_KINDS.length]!, id, true), rstStreamFrame(id));
      }
      return { first: Buffer.concat(parts), delayMs };
    }
    case 'answer+rst':
      return { first: start, afterServer: Buffer.concat([settingsAckFrame(), opening(target, kind, 1, true), rstStreamFrame(1)]), delayMs };
    case 'rst-later':
      return { first: start, afterServer: Buffer.concat([settingsAckFrame(), opening(target, kind, 1, true)]), later: rstStreamFrame(1), delayMs };
  }
}

/** What one connection saw: bytes the server sent before the client closed, or the socket error. */
export interface RawOutcome {
  readonly received: number;
  readonly error?: string;
}

function open(target: RawTarget): Socket {
  if (target.tls === undefined) return netConnect({ host: target.host, port: target.port });
  return tlsConnect({ host: target.host, port: target.port, ca: target.tls.ca, ALPNProtocols: ['h2'] });
}

/** One connection: makes `writes` (see ConnectionWrites), reads for `lingerMs` after the last, then closes. Never rejects. */
export function runConnection(target: RawTarget, writes: ConnectionWrites, lingerMs: number): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = open(target);
    let received = 0;
    let error: string | undefined;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(error === undefined ? { received } : { received, error });
    };
    const write = (bytes: Buffer): void => {
      if (!done) socket.write(bytes);
    };
    const linger = (): void => void sleep(lingerMs).then(finish);
    const afterServer = (): void => {
      if (writes.afterServer !== undefined) write(writes.afterServer);
      const later = writes.later;
      if (later === undefined) return linger();
      const third = (): void => {
        write(later);
        linger();
      };
      if (writes.delayMs === 0) setImmediate(third);
      else setTimeout(third, writes.delayMs);
    };
    socket.on('data', (b: Buffer) => {
      const first = received === 0;
      received += b.length;
      if (first && writes.afterServer !== undefined) afterServer();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code ?? err.message;
      finish();
    });
    socket.on('close', finish);
    socket.once(target.tls === undefined ? 'connect' : 'secureConnect', () => {
      socket.write(writes.first);
      if (writes.afterServer === undefined) afterServer();
      else setTimeout(finish, 5_000).unref(); // a server that never speaks: give up
    });
  });
}

/** Tally of a raw run: connections per shape, and how many ended in a socket error (by code). */
export interface RawTally {
  readonly connections: number;
  readonly streams: number;
  readonly errors: Readonly<Record<string, number>>;
}

/**
 * `connections` connections, `parallel` at a time, cycling through every kind under every shape
 * (the kind varies fastest), the delays of `rst-later` cycling through 0, 1 and 3 ms. Stops
 * early once `alive()` answers false (the member died: the rest would only be refused).
 */
export async function rawCancelRace(target: RawTarget, connections: number, parallel: number, alive: () => boolean, lingerMs = 25): Promise<RawTally> {
  const errors: Record<string, number> = {};
  let streams = 0;
  let next = 0;
  const delays = [0, 1, 3];
  const worker = async (): Promise<void> => {
    for (let i = next++; i < connections && alive(); i = next++) {
      const kindIndex = i % REQUEST_KINDS.length;
      const round = Math.floor(i / REQUEST_KINDS.length);
      const shape = SHAPES[round % SHAPES.length]!;
      streams += shape === 'streams+rst' ? STREAMS_PER_CONNECTION : 1;
      const outcome = await runConnection(target, connectionWrites(target, shape, kindIndex, delays[round % delays.length]!), lingerMs);
      if (outcome.error !== undefined) errors[outcome.error] = (errors[outcome.error] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { connections: Math.min(next, connections), streams, errors };
}
