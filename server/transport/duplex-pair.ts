/**
 * Two connected in-memory `Duplex` ends, like the two ends of a socket pair: what one end writes
 * the other reads (Node 20 has no `stream.duplexPair`). Used to give an in-process HTTP/2 client
 * and server one connection without a file descriptor.
 *
 * Contract:
 * - bytes arrive in order, unchanged (Buffers only: no object mode, no encodings);
 * - back-pressure: a write completes once the other end's reader has room (its `push` returned
 *   true, or it asked for more);
 * - ending one end (`end()`) ends the other end's readable side (half-close, like a socket's FIN);
 * - destroying one end destroys the other (a dropped connection): nothing hangs on a dead pair.
 */
import { Duplex } from 'node:stream';

class PairEnd extends Duplex {
  peer: PairEnd | undefined;
  /** The callback of our last write, held until the peer's reader has room again. */
  #blocked: ((err?: Error | null) => void) | undefined;

  override _read(): void {
    if (this.peer !== undefined) this.peer.#release();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    const peer = this.peer;
    if (peer === undefined || peer.destroyed) {
      callback(new Error('the other end of the pair is gone'));
      return;
    }
    if (peer.push(chunk)) callback();
    else this.#blocked = callback;
  }

  override _final(callback: (err?: Error | null) => void): void {
    this.peer?.push(null);
    callback();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.#release();
    const peer = this.peer;
    this.peer = undefined;
    if (peer !== undefined) {
      peer.peer = undefined;
      peer.destroy();
    }
    callback(err);
  }

  #release(): void {
    const callback = this.#blocked;
    this.#blocked = undefined;
    callback?.();
  }
}

/** Two ends of one in-memory connection. */
export function createDuplexPair(): readonly [Duplex, Duplex] {
  const a = new PairEnd();
  const b = new PairEnd();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
