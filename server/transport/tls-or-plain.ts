/**
 * For a port that serves `http://` and `https://` at once: reads a fresh socket's first byte
 * and tells whether it opens a TLS record (a ClientHello: content type 22, handshake) or
 * something else (served as plaintext: HTTP/2 preface, HTTP/1.x, or dropped by the sniffer).
 * etcd's multiplexer tries its plaintext matchers first and gives everything else to TLS; the
 * first byte decides the same for every client that speaks one of the three.
 *
 * Contract:
 * - exactly one of `onTls` / `onPlain` / `onDropped` is called, at most once;
 * - on a decision the socket is paused with the bytes read pushed back (`unshift`), so the
 *   next stage (the TLS handshake or the sniffer) reads them from byte 0;
 * - a client that sends nothing within `timeoutMs`, closes first or errors is destroyed and
 *   reported through `onDropped`; an 'error' listener stays on the socket for its whole life.
 */
import type { Socket } from 'node:net';
import { readSocket } from './read-socket.js';

/** TLS record content type "handshake": the first byte of every ClientHello. */
const TLS_HANDSHAKE_RECORD = 0x16;

export interface TlsOrPlainCallbacks {
  onTls(): void;
  onPlain(): void;
  onDropped(reason: string): void;
}

/** Pure: whether a connection's first bytes open a TLS record. */
export function opensTlsRecord(first: Buffer): boolean {
  return first.length > 0 && first[0] === TLS_HANDSHAKE_RECORD;
}

export function tlsOrPlain(socket: Socket, timeoutMs: number, cb: TlsOrPlainCallbacks): void {
  const drop = (reason: string): void => {
    if (reading.ended) return;
    reading.end();
    socket.destroy();
    cb.onDropped(reason);
  };
  socket.on('error', (err: Error) => drop(`socket error: ${err.message}`));
  const reading = readSocket(socket, timeoutMs, {
    onBytes(all) {
      if (all.length === 0) return false;
      reading.end();
      socket.unshift(all);
      if (opensTlsRecord(all)) cb.onTls();
      else cb.onPlain();
      return true;
    },
    onTimeout: () => drop(`nothing sent within ${timeoutMs} ms`),
    onGone(reason) {
      socket.destroy();
      cb.onDropped(reason === 'end' ? 'client closed before sending anything' : 'connection closed before sending anything');
    },
  });
}
