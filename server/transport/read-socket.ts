/**
 * Reads a freshly accepted socket into one growing buffer until its reader decides, for the
 * sniffing stages of the client port (sniff-socket.ts, h2-opening-socket.ts).
 *
 * Contract:
 * - `onBytes(all)` sees every byte read so far after each chunk; returning true ends the reading;
 * - `onTimeout(all)` runs once `timeoutMs` passed without an end; it must end the reading itself
 *   (through `end()` of the returned handle) or accept that nothing is read any more;
 * - `onGone(reason)` reports a socket that ended or closed first;
 * - once ended (by any of these), the listeners and the timer are gone and the socket is paused;
 *   the owner of the socket's 'error' listener is the caller.
 */
import type { Socket } from 'node:net';

export interface SocketReader {
  onBytes(all: Buffer): boolean;
  onTimeout(all: Buffer): void;
  onGone(reason: 'end' | 'close'): void;
}

export interface SocketReading {
  /** Whether the reading is over. */
  readonly ended: boolean;
  /** Ends the reading (idempotent): listeners and timer removed, socket paused. */
  end(): void;
}

export function readSocket(socket: Socket, timeoutMs: number, reader: SocketReader): SocketReading {
  let buffered: Buffer = Buffer.alloc(0);
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    socket.removeListener('data', onData);
    socket.removeListener('end', onEnd);
    socket.removeListener('close', onClose);
    socket.pause();
  };
  const onData = (chunk: Buffer): void => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    if (reader.onBytes(buffered)) end();
  };
  const gone = (reason: 'end' | 'close'): void => {
    if (ended) return;
    end();
    reader.onGone(reason);
  };
  const onEnd = (): void => gone('end');
  const onClose = (): void => gone('close');
  socket.on('data', onData);
  socket.on('end', onEnd);
  socket.on('close', onClose);
  const timer = setTimeout(() => reader.onTimeout(buffered), timeoutMs);
  return {
    get ended() {
      return ended;
    },
    end,
  };
}
