/**
 * The second sniffing stage of an HTTP/2 client connection (after sniff-socket.ts found the
 * preface): sends the empty SETTINGS frame, reads until h2-opening.ts decides, and hands the
 * socket back paused.
 *
 * Contract:
 * - the socket comes paused with the bytes read so far unshifted (as sniff-socket leaves it);
 * - exactly one of `onPlain` / `onRelay` / `onDropped` is called, at most once;
 * - `onPlain`: the socket is paused and holds every byte read (minus the client's SETTINGS ACK)
 *   unshifted, ready for the HTTP/2 server, which then parses it from byte 0;
 * - `onRelay(bytes)`: the socket is paused with nothing unshifted; `bytes` are all bytes read
 *   so far, from the preface on, for the relay to process first;
 * - past `timeoutMs` or `maxBytes` the decision is forced (see inspectOpening's `final`);
 * - nothing thrown leaves the socket's handlers (a fault in `inspectOpening` drops that socket);
 * - a socket that ends or closes meanwhile is reported through `onDropped` (destroyed); socket
 *   errors are left to the 'error' listener sniff-socket keeps for the socket's whole life.
 */
import type { Socket } from 'node:net';
import { inspectOpening, type OpeningDecision } from './h2-opening.js';
import { EMPTY_SETTINGS } from './http2-frames.js';
import { readSocket } from './read-socket.js';

export interface OpeningLimits {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

export interface OpeningCallbacks {
  /** `firstRequestGrpc`: whether the first request is a gRPC call; undefined when none was read. */
  onPlain(reason: string, firstRequestGrpc: boolean | undefined): void;
  onRelay(bytes: Buffer, decision: Extract<OpeningDecision, { route: 'relay' }>): void;
  onDropped(reason: string): void;
}

export function awaitH2Opening(socket: Socket, limits: OpeningLimits, cb: OpeningCallbacks): void {
  const decide = (all: Buffer, final: boolean): boolean => {
    if (reading.ended) return true;
    let decision: OpeningDecision;
    try {
      decision = inspectOpening(all, final);
    } catch (e) {
      // inspectOpening never throws by contract; were it to, one connection is lost, not the process.
      reading.end();
      socket.destroy();
      cb.onDropped(`HTTP/2 opening unreadable: ${String(e)}`);
      return true;
    }
    if (decision.route === 'wait') return false;
    reading.end();
    if (decision.route === 'plain') {
      socket.unshift(decision.bytes);
      cb.onPlain(decision.reason, decision.firstRequestGrpc);
    } else {
      cb.onRelay(all, decision);
    }
    return true;
  };
  const reading = readSocket(socket, limits.timeoutMs, {
    onBytes: (all) => decide(all, all.length >= limits.maxBytes),
    onTimeout: (all) => void decide(all, true),
    onGone(reason) {
      socket.destroy();
      cb.onDropped(reason === 'end' ? 'client closed during the HTTP/2 opening' : 'connection closed during the HTTP/2 opening');
    },
  });
  socket.write(EMPTY_SETTINGS);
  socket.resume();
}
