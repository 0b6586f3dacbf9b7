/**
 * A connection whose bytes a front-end thread pipes to the core thread (HTTP/1.1, and HTTP/2
 * requests that are not gRPC), as the core's HTTP servers see it: a `Duplex` that reads what the
 * front end forwards and writes through it, with the client's address and certificate
 * (client-identity.ts) and the few socket methods Node's HTTP servers call (`setTimeout`,
 * `setNoDelay`, `setKeepAlive`, `address`, `ref`, `unref`).
 *
 * Back-pressure both ways: a write's callback waits while more than `HIGH_WATER` bytes are
 * written but not yet taken by the front end's socket (`acked`); when the reader here leaves
 * received bytes untaken (`push` returns false), the front end stops reading the client until
 * it reads again.
 */
import { Duplex } from 'node:stream';
import { identityProperties, type ClientIdentity } from './client-identity.js';

/** What the socket asks of the channel. */
export interface PipeOut {
  write(bytes: Buffer): void;
  end(): void;
  destroy(): void;
  /** Stop / start reading the client (what the reader here has not taken yet is over its mark). */
  pause(): void;
  resume(): void;
}

const HIGH_WATER = 256 * 1024;

export class PipedSocket extends Duplex {
  readonly #out: PipeOut;
  #unacked = 0;
  #held: (() => void) | undefined;
  #remoteGone = false;
  #remotePaused = false;
  #idleMs = 0;
  #idle: NodeJS.Timeout | undefined;
  declare readonly remoteAddress: string | undefined;
  declare readonly remotePort: number | undefined;
  declare readonly localAddress: string | undefined;
  declare readonly localPort: number | undefined;
  declare readonly remoteFamily: string | undefined;

  constructor(identity: ClientIdentity, out: PipeOut) {
    super({ allowHalfOpen: true });
    Object.defineProperties(this, identityProperties(identity));
    this.#out = out;
  }

  // ---- from the front end ----

  /** Bytes the client sent. */
  received(bytes: Buffer): void {
    this.#touch();
    if (!this.push(bytes) && !this.#remotePaused) {
      this.#remotePaused = true;
      this.#out.pause();
    }
  }

  /** The client ended its side. */
  receivedEnd(): void {
    this.push(null);
  }

  /** The front end's socket took `bytes` more of what was written. */
  acked(bytes: number): void {
    this.#unacked -= bytes;
    if (this.#held !== undefined && this.#unacked <= HIGH_WATER) {
      const go = this.#held;
      this.#held = undefined;
      go();
    }
  }

  /** The front end's socket is gone. */
  gone(): void {
    this.#remoteGone = true;
    this.destroy();
  }

  // ---- Duplex ----

  override _read(): void {
    // Bytes are pushed by `received`; a read means the reader wants more.
    if (!this.#remotePaused || this.#remoteGone) return;
    this.#remotePaused = false;
    this.#out.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#touch();
    this.#out.write(chunk);
    this.#unacked += chunk.length;
    if (this.#unacked <= HIGH_WATER) callback();
    else this.#held = () => callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#out.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.#idle);
    if (!this.#remoteGone) this.#out.destroy();
    this.#held = undefined;
    callback(error);
  }

  // ---- what Node's HTTP servers call on a socket ----

  setTimeout(ms: number, callback?: () => void): this {
    if (callback !== undefined) this.once('timeout', callback);
    this.#idleMs = ms;
    this.#touch();
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  address(): { address: string | undefined; port: number | undefined; family: string | undefined } {
    return { address: this.localAddress, port: this.localPort, family: this.remoteFamily };
  }

  #touch(): void {
    clearTimeout(this.#idle);
    this.#idle = undefined;
    if (this.#idleMs > 0 && !this.destroyed) {
      this.#idle = setTimeout(() => this.emit('timeout'), this.#idleMs);
      this.#idle.unref();
    }
  }
}
