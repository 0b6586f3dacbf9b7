/**
 * What the frame handlers of an `H2Connection` (frame-handlers.ts, request-frames.ts) reach of
 * their connection: its streams and their states, both directions' flow control, the flood
 * bounds, the frames out, and GOAWAY. The connection hands them one such object, built once;
 * nothing else sees it (it is not part of `H2Connection`'s API).
 *
 * Contract: used only while a frame is being read (inside the read loop of `H2Connection`,
 * which turns any throw into a connection error). `spend` throws `H2ConnectionError`
 * ENHANCE_YOUR_CALM past a flood bound.
 */
import type { FloodKind } from './flood-guard.js';
import type { ReceiveWindows } from './receive-windows.js';
import type { SendQueue } from './send-queue.js';
import type { StreamStates } from './stream-states.js';

export interface ConnectionCore {
  readonly streams: StreamStates;
  readonly send: SendQueue;
  readonly recv: ReceiveWindows;
  /** Whether we or the client sent GOAWAY: new streams are refused. */
  goingAway(): boolean;
  /** Queues frame bytes for the socket (ignored once the connection is closed). */
  queue(bytes: Buffer): void;
  /** Spends one token of a flood bound; past it, a connection error ENHANCE_YOUR_CALM. */
  spend(kind: FloodKind, what: string): void;
  /** The client's GOAWAY: no new streams; the connection ends once the open ones are done. */
  peerGoingAway(): void;
}
