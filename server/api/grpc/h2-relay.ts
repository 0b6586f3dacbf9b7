/**
 * The relay from our own HTTP/2 framing to the grpc-js server: the streams of a client
 * connection that are not answered on the `H2Stream` itself (Watch and LeaseKeepAlive bidi
 * streams, compressed requests, other content types, anything unknown) are passed, unchanged,
 * to grpc-js over one in-process HTTP/2 connection per client connection.
 *
 * Shape: a client connection (H2Connection) ─ its H2Relay ─ an in-memory duplex pair
 * (transport/duplex-pair.ts) ─ one end to Node's HTTP/2 client (`http2.connect` with
 * `createConnection`), the other injected into grpc-js (`createConnectionInjector`). Each relayed
 * stream becomes one request on that session (h2-relay-headers.ts builds it; h2-relay-stream.ts
 * joins the two, flow control included). grpc-js sees the client's socket as the session's
 * socket (h2-relay-identity.ts), so `getPeer()` and `getAuthContext()` are the client's.
 *
 * Contract:
 * - the session is opened on the first relayed stream, and again after one is closed (grpc-js
 *   sent GOAWAY, or the session failed): a later stream never lands on a dead session;
 * - a request that is malformed (h2-relay-headers.ts) is reset with PROTOCOL_ERROR; one Node
 *   refuses to send for any other reason is reset with REFUSED_STREAM (nothing was processed);
 * - a failed or closed session resets the streams relayed on it (the server's RST code, else
 *   INTERNAL_ERROR); `close()` destroys the session (grpc-js sees its calls cancelled);
 * - nothing is thrown into the connection and no 'error' event goes unhandled.
 */
import { connect, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { H2Error } from '../../transport/http2-frames.js';
import type { H2Stream } from '../../transport/h2/h2-stream.js';
import { createDuplexPair } from '../../transport/duplex-pair.js';
import { relayRequest } from './h2-relay-headers.js';
import { lendClientSocket } from './h2-relay-identity.js';
import { joinStreams } from './h2-relay-stream.js';

/** The client connection a relay serves. */
export interface RelayClient {
  readonly socket: Socket;
  /** grpc-js could not be shown the client socket: relayed calls see no peer address and no certificate. */
  readonly onUnidentified?: () => void;
}

/** Where relayed streams go: grpc-js's `server.createConnectionInjector(grpc.ServerCredentials.createInsecure())`. */
export interface RelayTarget {
  injectConnection(connection: Duplex): void;
}

/**
 * The in-process session's receive window per stream: what grpc-js may send ahead on a stream
 * whose client is not reading. (Node grants the session-wide window back as data arrives, so a
 * stalled stream does not hold up the others: the relay tests check it.)
 */
const STREAM_WINDOW = 1 << 20;

/** One per client connection: relays streams to grpc-js over one in-process HTTP/2 session, opened on first use. */
export class H2Relay {
  readonly #target: RelayTarget;
  readonly #client: RelayClient;
  #session: ClientHttp2Session | undefined;
  #closed = false;

  /** `client.socket`: the client connection's socket (net.Socket, or tls.TLSSocket on a TLS port). */
  constructor(target: RelayTarget, client: RelayClient) {
    this.#target = target;
    this.#client = client;
  }

  /** Relays `stream` whole: takes over its callbacks; the answer (headers, data, trailers, reset) goes back on it. */
  relay(stream: H2Stream): void {
    if (stream.closed) return;
    if (this.#closed) {
      stream.reset(H2Error.RefusedStream);
      return;
    }
    const request = relayRequest(stream.headers);
    if (request.kind === 'malformed') {
      stream.reset(H2Error.ProtocolError);
      return;
    }
    let req: ClientHttp2Stream;
    try {
      req = this.#open().request(request.headers, { endStream: false });
    } catch (err) {
      stream.reset(isHeaderError(err) ? H2Error.ProtocolError : H2Error.RefusedStream);
      return;
    }
    joinStreams(stream, req);
  }

  /** The client connection is gone: closes the in-process session (streams on it are reset). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const session = this.#session;
    this.#session = undefined;
    session?.destroy();
  }

  /** The usable session, opened if there is none. */
  #open(): ClientHttp2Session {
    const current = this.#session;
    if (current !== undefined && !current.closed && !current.destroyed) return current;
    const [clientEnd, serverEnd] = createDuplexPair();
    const session = connect('http://localhost', {
      createConnection: () => clientEnd,
      settings: { enablePush: false, initialWindowSize: STREAM_WINDOW },
    });
    session.on('error', () => undefined); // its streams see the failure and are reset ('close')
    session.on('close', () => {
      if (this.#session === session) this.#session = undefined;
    });
    serverEnd.on('error', () => undefined);
    try {
      this.#target.injectConnection(serverEnd);
    } catch (err) {
      session.destroy(); // the stream that asked is refused by the caller
      throw err;
    }
    if (!lendClientSocket(serverEnd, this.#client.socket)) this.#client.onUnidentified?.();
    this.#session = session;
    return session;
  }
}

/** Node's synchronous refusals of a header set (as opposed to a session that cannot take streams). */
function isHeaderError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    ['ERR_HTTP2_INVALID_CONNECTION_HEADERS', 'ERR_HTTP2_HEADER_SINGLE_VALUE', 'ERR_HTTP2_INVALID_HEADER_VALUE', 'ERR_HTTP2_INVALID_PSEUDOHEADER', 'ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN'].includes(code)
  );
}
