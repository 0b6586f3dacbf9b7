/**
 * Reads the first bytes of a freshly accepted socket until its protocol is known, then hands
 * the socket back untouched: paused, with every byte read so far pushed back (`unshift`), so
 * the next owner (the HTTP/2 server of grpc-js or the HTTP/1.1 server) parses it from byte 0.
 *
 * Contract:
 * - exactly one of `onDecided` / `onDropped` is called, at most once;
 * - on a decision the sniffer's own 'data'/'end' listeners and its timer are gone, the socket is
 *   paused and holds the unshifted bytes (the caller resumes it if its new owner needs that);
 * - a client that sends nothing decisive within `timeoutMs`, closes early or errors is destroyed
 *   and reported through `onDropped`;
 * - bytes that are neither the HTTP/2 preface nor the start of an HTTP/1.x request line (a
 *   broken preface included, protocol-sniff.ts) get no answer: the socket is ended (FIN, so a
 *   client waiting for the close sees one) and destroyed, and reported through `onDropped`;
 * - an 'error' listener stays on the socket for its whole life, so a late error never crashes
 *   the process (it is reported to `onSocketError`).
 */
import type { Socket } from 'node:net';
import { Protocol, sniffProtocol } from './protocol-sniff.js';
import { readSocket } from './read-socket.js';

export type SniffedProtocol = Exclude<Protocol, 'undecided' | 'neither'>;

export interface SniffCallbacks {
  onDecided(protocol: SniffedProtocol): void;
  onDropped(reason: string): void;
  onSocketError(err: Error): void;
}

export function sniffSocket(socket: Socket, timeoutMs: number, cb: SniffCallbacks): void {
  const drop = (reason: string): void => {
    if (reading.ended) return;
    reading.end();
    socket.destroy();
    cb.onDropped(reason);
  };
  socket.on('error', (err: Error) => {
    cb.onSocketError(err);
    drop(`socket error: ${err.message}`);
  });
  const reading = readSocket(socket, timeoutMs, {
    onBytes(all) {
      const protocol = sniffProtocol(all);
      if (protocol === Protocol.Undecided) return false;
      reading.end();
      if (protocol === Protocol.Neither) {
        socket.end(() => socket.destroy());
        cb.onDropped('neither the HTTP/2 preface nor an HTTP/1.x request line');
        return true;
      }
      socket.unshift(all);
      cb.onDecided(protocol);
      return true;
    },
    onTimeout: () => drop(`no request within ${timeoutMs} ms`),
    onGone(reason) {
      socket.destroy();
      cb.onDropped(reason === 'end' ? 'client closed before sending a request' : 'connection closed before sending a request');
    },
  });
}
