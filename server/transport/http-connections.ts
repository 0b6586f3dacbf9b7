/**
 * Tracks the HTTP/1.1 connections handed to an `http.Server` that never listens itself (the
 * shared client port feeds it with `emit('connection')`, so Node's own connection tracking and
 * `closeIdleConnections()` do not apply).
 *
 * Contract:
 * - `add(socket)` before emitting the socket to the server; the socket leaves the set on 'close';
 * - a socket whose first request head is not complete within `headersTimeoutMs` is destroyed
 *   (Node's own headersTimeout check only runs for servers that listen themselves);
 * - a socket is busy from its 'request' until that response closes;
 * - `closeIdle()` destroys idle sockets now and every busy one as soon as its current response
 *   is done (no new keep-alive requests are served after it); `destroyAll()` ends all of them.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface HttpConnections {
  add(socket: Socket): void;
  closeIdle(): void;
  destroyAll(): void;
  readonly size: number;
}

export function trackHttpConnections(server: Server, headersTimeoutMs: number): HttpConnections {
  const busy = new Map<Socket, number>();
  const all = new Set<Socket>();
  const firstRequestTimers = new Map<Socket, NodeJS.Timeout>();
  let closing = false;

  server.on('request', (req, res) => {
    const socket = req.socket;
    clearTimeout(firstRequestTimers.get(socket));
    firstRequestTimers.delete(socket);
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.on('close', () => {
      const left = (busy.get(socket) ?? 1) - 1;
      if (left > 0) busy.set(socket, left);
      else busy.delete(socket);
      if (closing && left <= 0) socket.destroy();
    });
  });

  return {
    add(socket) {
      all.add(socket);
      firstRequestTimers.set(socket, setTimeout(() => socket.destroy(), headersTimeoutMs));
      socket.on('close', () => {
        all.delete(socket);
        busy.delete(socket);
        clearTimeout(firstRequestTimers.get(socket));
        firstRequestTimers.delete(socket);
      });
    },
    closeIdle() {
      closing = true;
      for (const socket of all) if (!busy.has(socket)) socket.destroy();
    },
    destroyAll() {
      closing = true;
      for (const socket of all) socket.destroy();
    },
    get size() {
      return all.size;
    },
  };
}
