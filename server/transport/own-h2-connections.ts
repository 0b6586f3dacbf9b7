/**
 * The HTTP/2 connections a client port frames itself (h2/h2-connection.ts): each one opened
 * with the layer above's `H2Serving`, remembered until it closes, asked to GOAWAY or destroyed
 * together when the port closes.
 */
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { H2Connection } from './h2/h2-connection.js';
import type { H2Serving } from './h2/h2-serving.js';

export interface OwnH2Connections {
  /** Serves `socket` on our framing; `initial`: bytes already read from it (and not unshifted). */
  serve(socket: Socket, initial: Buffer | undefined): void;
  goAway(): void;
  destroyAll(): void;
}

export function ownH2Connections(serving: H2Serving, log: Logger): OwnH2Connections {
  const open = new Set<H2Connection>();
  return {
    serve(socket, initial) {
      const conn = new H2Connection(socket);
      const service = serving.open(socket);
      conn.onStream = service.onStream;
      conn.onStreamFault = (err, info) => {
        if (service.onStreamFault !== undefined) service.onStreamFault(err, info);
        else log.error({ err, stream: info.streamId, method: info.path, remote: socket.remoteAddress }, 'a client call failed inside the member; its stream was reset');
      };
      conn.onError = (err) => log.debug({ err, remote: socket.remoteAddress }, 'HTTP/2 connection error');
      conn.onClose = () => {
        open.delete(conn);
        service.close();
      };
      open.add(conn);
      if (initial !== undefined) conn.receive(initial);
      socket.resume();
    },
    goAway() {
      for (const conn of open) conn.goAway();
    },
    destroyAll() {
      for (const conn of [...open]) conn.destroy();
    },
  };
}
