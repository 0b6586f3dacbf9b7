/**
 * The core thread's side of a front end: the connections it forwards (records.ts), served by
 * the same code that serves this thread's own connections.
 *
 * - A gRPC connection is opened with the gRPC layer's `H2Serving`, given a socket that stands
 *   for the client's (client-identity.ts); each forwarded stream is a real `H2Stream` whose sink
 *   turns `respond` / `write` / `end` / `reset` / `consumed` into records, so the unary calls,
 *   the Snapshot stream, the bidi streams (Watch, LeaseKeepAlive) and the relay to grpc-js run
 *   unchanged.
 * - A piped connection is a `PipedSocket` handed to the HTTP routes (in-process-routes.ts).
 *
 * Request DATA is copied out of the turn's buffer (a write keeps the request's bytes in the log).
 * A stream's `write` returns false while more than `HIGH_WATER` bytes wait for the front end's
 * `Ack`, and `onDrain` follows once all are acknowledged.
 */
import type { ConnectionRoutes } from '../transport/connection-routes.js';
import type { HeaderField } from '../transport/header-block-codec.js';
import type { H2ConnectionService, H2Serving } from '../transport/h2/h2-serving.js';
import { H2Stream, type StreamSink } from '../transport/h2/h2-stream.js';
import { identitySocket, type ClientIdentity } from './client-identity.js';
import { PipedSocket } from './piped-socket.js';
import { decodeHeaders, FromCore, FromFront, type RecordView } from './records.js';
import type { TurnChannel } from './turn-channel.js';

const HIGH_WATER = 256 * 1024;
/** RST_STREAM CANCEL: what a stream of a connection that is gone sees. */
const CANCEL = 8;

interface CoreStream {
  readonly stream: H2Stream;
  unacked: number;
  blocked: boolean;
}

interface CoreGrpcConn {
  readonly service: H2ConnectionService;
  readonly streams: Map<number, CoreStream>;
  readonly sink: StreamSink;
  /** The header list of the last stream opened (the next one is read against it). */
  lastHeaders: readonly HeaderField[];
}

export interface CoreConnections {
  fromFront(r: RecordView, extras: readonly unknown[]): void;
  /** Every forwarded connection is gone (the front end stopped). */
  dropAll(): void;
}

export function coreConnections(channel: TurnChannel, serving: H2Serving, http: ConnectionRoutes): CoreConnections {
  const grpcConns = new Map<number, CoreGrpcConn>();
  const piped = new Map<number, PipedSocket>();

  const sinkFor = (conn: number, streams: Map<number, CoreStream>): StreamSink => {
    const finish = (stream: H2Stream): void => {
      stream.localEnded = true;
      stream.closed = true;
      streams.delete(stream.id);
    };
    return {
      sendHeaders(stream, block, endStream) {
        if (stream.closed) return;
        channel.record(FromCore.Respond, conn, stream.id, endStream ? 1 : 0, block);
        if (endStream) finish(stream);
      },
      sendData(stream, data) {
        const s = streams.get(stream.id);
        if (stream.closed || s === undefined) return 0;
        channel.record(FromCore.Write, conn, stream.id, 0, data);
        s.unacked += data.length;
        if (s.unacked <= HIGH_WATER) return 0;
        s.blocked = true;
        return s.unacked;
      },
      sendTrailers(stream, block) {
        if (stream.closed) return;
        channel.record(FromCore.Trailers, conn, stream.id, 0, block);
        finish(stream);
      },
      sendReset(stream, code) {
        if (stream.closed) return;
        channel.record(FromCore.Reset, conn, stream.id, code);
        finish(stream);
      },
      consumed(stream, bytes) {
        if (stream.closed || stream.remoteEnded || bytes <= 0) return;
        channel.record(FromCore.Consumed, conn, stream.id, bytes);
      },
    };
  };

  const resetByClient = (s: CoreStream, code: number): void => {
    const stream = s.stream;
    if (stream.closed) return;
    stream.closed = true;
    stream.localEnded = true;
    stream.onReset?.(code);
  };

  /** A gRPC connection is gone: its open streams see a CANCEL reset, then its service closes. */
  const dropGrpc = (conn: number, c: CoreGrpcConn): void => {
    grpcConns.delete(conn);
    for (const s of c.streams.values()) resetByClient(s, CANCEL);
    c.streams.clear();
    c.service.close();
  };

  const onGrpc = (r: RecordView, extras: readonly unknown[]): void => {
    if (r.kind === FromFront.OpenGrpc) {
      const streams = new Map<number, CoreStream>();
      const service = serving.open(identitySocket(extras[r.arg] as ClientIdentity));
      grpcConns.set(r.conn, { service, streams, sink: sinkFor(r.conn, streams), lastHeaders: [] });
      return;
    }
    const c = grpcConns.get(r.conn);
    if (c === undefined) return;
    if (r.kind === FromFront.Closed) return dropGrpc(r.conn, c);
    if (r.kind === FromFront.Stream) {
      const headers = decodeHeaders(r.payload, c.lastHeaders);
      c.lastHeaders = headers;
      const stream = new H2Stream(r.stream, headers, c.sink, 0, 0);
      c.streams.set(r.stream, { stream, unacked: 0, blocked: false });
      c.service.onStream(stream);
      return;
    }
    const s = c.streams.get(r.stream);
    if (s === undefined) return;
    const stream = s.stream;
    switch (r.kind) {
      case FromFront.Data:
        stream.receive(Buffer.from(r.payload));
        if (stream.autoGrant) c.sink.consumed(stream, r.payload.length);
        return;
      case FromFront.EndIn:
        stream.receiveEnd();
        return;
      case FromFront.ResetIn:
        c.streams.delete(r.stream);
        resetByClient(s, r.arg);
        return;
      case FromFront.Ack:
        s.unacked -= r.arg;
        if (s.blocked && s.unacked <= 0) {
          s.blocked = false;
          stream.onDrain?.();
        }
        return;
    }
  };

  const onPiped = (r: RecordView, extras: readonly unknown[]): void => {
    if (r.kind === FromFront.OpenPiped) {
      const conn = r.conn;
      const socket = new PipedSocket(extras[r.stream] as ClientIdentity, {
        write: (bytes) => channel.record(FromCore.PipedWrite, conn, 0, 0, bytes),
        end: () => channel.record(FromCore.PipedEnd, conn, 0, 0),
        destroy: () => channel.record(FromCore.PipedDestroy, conn, 0, 0),
        pause: () => channel.record(FromCore.PipedPause, conn, 0, 0),
        resume: () => channel.record(FromCore.PipedResume, conn, 0, 0),
      });
      socket.on('error', () => undefined);
      socket.once('close', () => piped.delete(conn));
      piped.set(conn, socket);
      if (r.arg === 2) http.httpOverH2(socket as never);
      else http.http1(socket as never);
      return;
    }
    const socket = piped.get(r.conn);
    if (socket === undefined) return;
    switch (r.kind) {
      case FromFront.PipedData:
        socket.received(Buffer.from(r.payload));
        return;
      case FromFront.PipedEnd:
        socket.receivedEnd();
        return;
      case FromFront.Ack:
        socket.acked(r.arg);
        return;
      case FromFront.Closed:
        piped.delete(r.conn);
        socket.gone();
        return;
    }
  };

  return {
    fromFront(r, extras) {
      if (r.kind === FromFront.OpenPiped || piped.has(r.conn)) onPiped(r, extras);
      else onGrpc(r, extras);
    },
    dropAll() {
      for (const [conn, c] of grpcConns) dropGrpc(conn, c);
      for (const socket of piped.values()) socket.gone();
      piped.clear();
    },
  };
}
