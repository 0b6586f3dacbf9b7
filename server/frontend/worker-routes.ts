/**
 * The front end's routes (transport/connection-routes.ts): gRPC connections are framed here
 * (transport/h2/) and each of their streams is forwarded to the core as records (records.ts);
 * any other connection's bytes are piped to the core, whose HTTP servers answer them.
 *
 * Per stream: request headers, DATA, END_STREAM and resets go to the core; the core's answer
 * (headers, DATA, trailers, reset) is written on the stream here. Request DATA is granted back
 * to the client only as the core consumes it (`Consumed`), so the client's window is the core's
 * back-pressure. DATA the core writes is acknowledged (`Ack`) once the stream has taken it into
 * the client's window: the core's `write` returns false while too much is unacknowledged.
 */
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { ConnectionRoutes } from '../transport/connection-routes.js';
import type { HeaderField } from '../transport/header-block-codec.js';
import type { H2Serving } from '../transport/h2/h2-serving.js';
import type { H2Stream } from '../transport/h2/h2-stream.js';
import { ownH2Connections } from '../transport/own-h2-connections.js';
import { identityOf } from './client-identity.js';
import type { LocalReads } from './local-reads.js';
import type { LocalWatches } from './local-watches.js';
import type { ReplicaHost } from './replica-host.js';
import { encodeHeaders, FromCore, FromFront, type RecordView } from './records.js';
import type { TurnChannel } from './turn-channel.js';

/** A stream as the front end tracks it: DATA written but not yet acknowledged. */
interface Forwarded {
  readonly conn: number;
  readonly stream: H2Stream;
  unacked: number;
  /** DATA of this turn taken into the client's window: acknowledged at the turn's end if the stream is still open. */
  taken: number;
}

interface GrpcConn {
  readonly streams: Map<number, Forwarded>;
  /** The header list of the last stream forwarded (records.ts encodes the next one against it). */
  lastHeaders: readonly HeaderField[];
}

interface PipedConn {
  readonly socket: Socket;
  unacked: number;
}

export interface WorkerRoutes extends ConnectionRoutes {
  /** A record from the core. */
  fromCore(r: RecordView): void;
  /** The last record of a turn from the core was handled. */
  turnEnd(): void;
}

/** What this thread serves itself; without it every stream goes to the core. */
export interface LocalServing {
  /** The read replica both serve from (replica-host.ts). */
  readonly host: ReplicaHost;
  /** Serializable Ranges (local-reads.ts). */
  readonly reads: LocalReads;
  /** Watch streams (local-watches.ts). */
  readonly watches: LocalWatches;
}

export function workerRoutes(channel: TurnChannel, log: Logger, local?: LocalServing): WorkerRoutes {
  let nextConn = 1;
  const grpcConns = new Map<number, GrpcConn>();
  /**
   * Streams with DATA taken this turn. Their acknowledgements go at the turn's end, and only
   * for streams still open: a reply's DATA and its trailers usually come in one turn, and an
   * acknowledgement of a finished stream would only wake the core for nothing.
   */
  const taken: Forwarded[] = [];
  const piped = new Map<number, PipedConn>();

  const serving: H2Serving = {
    open(socket) {
      const conn = nextConn++;
      const state: GrpcConn = { streams: new Map(), lastHeaders: [] };
      grpcConns.set(conn, state);
      channel.record(FromFront.OpenGrpc, conn, 0, channel.extra(identityOf(socket)));
      /** Hands `stream` to the core, with the request bytes already read (and its end, if seen). */
      const forward = (stream: H2Stream, read: readonly Buffer[], ended: boolean): void => {
        const f: Forwarded = { conn, stream, unacked: 0, taken: 0 };
        state.streams.set(stream.id, f);
        stream.autoGrant = false;
        channel.record(FromFront.Stream, conn, stream.id, 0, encodeHeaders(stream.headers, state.lastHeaders));
        state.lastHeaders = stream.headers;
        for (const chunk of read) channel.record(FromFront.Data, conn, stream.id, 0, chunk);
        if (ended) channel.record(FromFront.EndIn, conn, stream.id, 0);
        else {
          stream.onData = (chunk) => channel.record(FromFront.Data, conn, stream.id, 0, chunk);
          stream.onEnd = () => channel.record(FromFront.EndIn, conn, stream.id, 0);
        }
        stream.onReset = (code) => {
          state.streams.delete(stream.id);
          channel.record(FromFront.ResetIn, conn, stream.id, code);
        };
        stream.onDrain = () => {
          if (f.unacked === 0) return;
          channel.record(FromFront.Ack, conn, stream.id, f.unacked);
          f.unacked = 0;
        };
      };
      return {
        onStream(stream) {
          if (local?.reads.takes(stream) === true) local.reads.serve(stream, forward);
          else if (local?.watches.takes(stream, socket) === true) local.watches.serve(stream, socket);
          else forward(stream, [], false);
        },
        onStreamFault(err, info) {
          log.error({ err, stream: info.streamId, method: info.path, remote: socket.remoteAddress }, 'a client call failed inside the member; its stream was reset');
          channel.record(FromFront.Fault, conn, info.streamId, 0, Buffer.from(info.path ?? '', 'utf8'));
        },
        close() {
          grpcConns.delete(conn);
          channel.record(FromFront.Closed, conn, 0, 0);
        },
      };
    },
  };
  const own = ownH2Connections(serving, log);

  const pipe = (socket: Socket, mode: 1 | 2): void => {
    const conn = nextConn++;
    const state: PipedConn = { socket, unacked: 0 };
    piped.set(conn, state);
    channel.record(FromFront.OpenPiped, conn, channel.extra(identityOf(socket)), mode);
    socket.on('data', (chunk: Buffer) => channel.record(FromFront.PipedData, conn, 0, 0, chunk));
    socket.on('end', () => channel.record(FromFront.PipedEnd, conn, 0, 0));
    socket.on('drain', () => {
      if (state.unacked === 0) return;
      channel.record(FromFront.Ack, conn, 0, state.unacked);
      state.unacked = 0;
    });
    socket.on('error', (err) => log.debug({ err, remote: socket.remoteAddress }, 'client socket error'));
    socket.on('close', () => {
      piped.delete(conn);
      channel.record(FromFront.Closed, conn, 0, 0);
    });
    socket.resume();
  };

  const onStreamRecord = (r: RecordView): void => {
    const f = grpcConns.get(r.conn)?.streams.get(r.stream);
    if (f === undefined) return; // reset or closed meanwhile
    const stream = f.stream;
    switch (r.kind) {
      case FromCore.Respond:
        stream.respond(r.payload, r.arg === 1);
        if (r.arg === 1) grpcConns.get(r.conn)?.streams.delete(r.stream);
        return;
      case FromCore.Write: {
        // A view of the turn's buffer, which this thread now owns: written without a copy.
        const data = r.payload;
        if (!stream.write(data)) f.unacked += data.length;
        else if ((f.taken += data.length) === data.length) taken.push(f);
        return;
      }
      case FromCore.Trailers:
        stream.end(r.payload);
        grpcConns.get(r.conn)?.streams.delete(r.stream);
        return;
      case FromCore.Reset:
        stream.reset(r.arg);
        grpcConns.get(r.conn)?.streams.delete(r.stream);
        return;
      case FromCore.Consumed:
        stream.consumed(r.arg);
        return;
    }
  };

  const onPipedRecord = (r: RecordView): void => {
    const p = piped.get(r.conn);
    if (p === undefined) return;
    switch (r.kind) {
      case FromCore.PipedWrite: {
        const data = r.payload;
        if (p.socket.write(data)) channel.record(FromFront.Ack, r.conn, 0, data.length);
        else p.unacked += data.length;
        return;
      }
      case FromCore.PipedEnd:
        p.socket.end();
        return;
      case FromCore.PipedDestroy:
        p.socket.destroy();
        return;
      case FromCore.PipedPause:
        p.socket.pause();
        return;
      case FromCore.PipedResume:
        p.socket.resume();
        return;
    }
  };

  return {
    http1: (socket) => pipe(socket, 1),
    httpOverH2: (socket) => pipe(socket, 2),
    grpc: (socket) => own.serve(socket, undefined),
    drain() {
      own.goAway();
    },
    destroyAll() {
      own.destroyAll();
      for (const p of piped.values()) p.socket.destroy();
    },
    closed() {
      // Piped connections are closed by the core's HTTP servers (PipedEnd / PipedDestroy).
    },
    turnEnd() {
      for (const f of taken) {
        if (grpcConns.get(f.conn)?.streams.get(f.stream.id) === f) channel.record(FromFront.Ack, f.conn, f.stream.id, f.taken);
        f.taken = 0;
      }
      taken.length = 0;
    },
    fromCore(r) {
      if (r.kind >= FromCore.ReplicaImage) local?.host.fromCore(r.kind, r.payload);
      else if (r.kind >= FromCore.PipedWrite) onPipedRecord(r);
      else onStreamRecord(r);
    },
  };
}
