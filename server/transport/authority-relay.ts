/**
 * The slow path for HTTP/2 clients whose `:authority` the server's HTTP/2 layer refuses: a
 * `Duplex` that stands for the client socket in front of the gRPC server.
 *
 * Contract:
 * - what the server reads is the client's byte stream passed through client-frame-rewriter.ts
 *   (starting with `opening`, the bytes already read by the sniffers); what the server writes
 *   goes to the client socket unchanged;
 * - backpressure both ways: the client socket is paused while the server has not read what was
 *   pushed, and the server's writes complete when the client socket drains;
 * - the client's end of stream ends the server's readable side; the server ending its side ends
 *   the socket; destroying either destroys the other;
 * - the socket comes paused (from the sniffers); the relay resumes it.
 */
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { createClientFrameRewriter, type AuthorityChange } from './client-frame-rewriter.js';

export interface RelayOptions {
  /** The client's first SETTINGS ACK answers the listener's own SETTINGS: drop it. */
  readonly swallowSettingsAck: boolean;
  readonly onChange?: (change: AuthorityChange) => void;
  /** The rewriter gave up on the stream (it then passes bytes through untouched). */
  readonly onMalformed?: (reason: string) => void;
}

export function createAuthorityRelay(socket: Socket, opening: Buffer, options: RelayOptions): Duplex {
  const rewriter = createClientFrameRewriter({ swallowSettingsAck: options.swallowSettingsAck, onChange: options.onChange });
  let reportedMalformed = false;
  let reading = true;

  const relay = new Duplex({
    read() {
      if (!reading) {
        reading = true;
        socket.resume();
      }
    },
    write(chunk: Buffer, _encoding, callback) {
      if (socket.destroyed) {
        callback(new Error('client socket closed'));
        return;
      }
      if (socket.write(chunk)) callback();
      else socket.once('drain', () => callback());
    },
    final(callback) {
      socket.end(callback);
    },
    destroy(err, callback) {
      socket.destroy();
      callback(err);
    },
  });

  const forward = (chunk: Buffer): void => {
    const out = rewriter.push(chunk);
    if (!reportedMalformed && rewriter.malformed !== undefined) {
      reportedMalformed = true;
      options.onMalformed?.(rewriter.malformed);
    }
    if (out.length > 0 && !relay.push(out)) {
      reading = false;
      socket.pause();
    }
  };

  socket.on('data', forward);
  socket.on('end', () => relay.push(null));
  socket.on('close', () => relay.destroy());
  forward(opening);
  if (reading) socket.resume();
  return relay;
}
