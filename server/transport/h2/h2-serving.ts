/**
 * What the client port asks of the layer above for an HTTP/2 connection it frames itself
 * (h2-connection.ts): per connection, a function serving its streams, where faults the
 * connection caught in that layer are reported, and a hook for when the connection is gone.
 * The gRPC layer provides it (api/grpc/h2-serving.ts); the transport knows nothing of gRPC.
 */
import type { Socket } from 'node:net';
import type { StreamFaultInfo } from './h2-connection.js';
import type { H2Stream } from './h2-stream.js';

export type { StreamFaultInfo } from './h2-connection.js';

export interface H2ConnectionService {
  readonly onStream: (stream: H2Stream) => void;
  /** A call into the layer above threw; the connection reset the stream and went on. */
  readonly onStreamFault?: (err: unknown, info: StreamFaultInfo) => void;
  /** The client connection is gone (every stream on it ended or was reset). */
  readonly close: () => void;
}

export interface H2Serving {
  /** A client connection (plain or TLS socket) starts being served. */
  open(socket: Socket): H2ConnectionService;
}
