/**
 * A bidi-streaming call (Watch, LeaseKeepAlive) answered on our own HTTP/2 stream, shaped like
 * the grpc-js `ServerDuplexStream` its handler was written for, so the registered handler runs
 * unchanged without the relay to grpc-js (h2-relay.ts) and its two extra HTTP/2 sessions.
 *
 * What the handlers use of it, and how it behaves (as grpc-js 1.14 does):
 * - `metadata.get(key)`, `getAuthContext()`, `getPeer()`;
 * - 'data' with each request message, deserialized by the registered function, in order;
 *   'end' after the last one once the client has half-closed;
 * - `pause()` / `resume()`: messages are held while paused, and request bytes are granted back
 *   to the client only as messages are delivered, so a paused call closes the client's window;
 * - `write(message)`: framed (the server's framer for the method, or its serializer) and written; the response headers go with the first
 *   one. Returns false while the stream waits for the client's window; 'drain' follows, and
 *   `writableNeedDrain` tells in between;
 * - `end()`: the OK trailers after every message written; an 'error' event `{ code, details }`
 *   ends the call with that status (a trailers-only response if nothing was written);
 * - the client's RST_STREAM or its connection closing: 'cancelled', then 'close'. Every end
 *   emits 'close' once.
 *
 * Request framing errors end the call with grpc-js's statuses and texts: a message over the
 * receive limit (RESOURCE_EXHAUSTED "Received message larger than max (N vs M)"), a compressed
 * message on an identity stream (INTERNAL), one that does not deserialize (INTERNAL "Error
 * deserializing request"). A response over the send limit ends it with RESOURCE_EXHAUSTED
 * "Sent message larger than max (N vs. M)".
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { PeerCertificate } from 'node:tls';
import type { H2Stream } from '../../transport/h2/h2-stream.js';
import { GrpcCode } from './codes.js';
import type { MetadataReader } from './context.js';
import { PREFIX_BYTES } from './fast-path-request.js';
import { fieldReader, OK_BLOCK, RESPONSE_BLOCK, sendStatus, tlsAuthContext, trailerBlock } from './h2-call-blocks.js';
import { replyFrame, type FastPathOptions, type RegisteredHandler } from './unary-fast-path.js';

/** The receive and send limits, and the reply framers (framed-replies.ts), of the server. */
export type BidiOptions = Pick<FastPathOptions, 'maxRecvBytes' | 'maxSendBytes' | 'framers'>;

export class H2BidiCall extends EventEmitter {
  readonly metadata: MetadataReader;
  writableNeedDrain = false;
  cancelled = false;
  readonly #stream: H2Stream;
  readonly #handler: RegisteredHandler;
  readonly #options: BidiOptions;
  readonly #socket: Socket;
  /** Received bytes not yet cut into messages. */
  #input: Buffer = Buffer.alloc(0);
  /** Whole messages (with their framed sizes) waiting while paused. */
  readonly #held: Array<{ readonly message: unknown; readonly bytes: number }> = [];
  #paused = false;
  #clientEnded = false;
  #endEmitted = false;
  #headersSent = false;
  #done = false;

  constructor(stream: H2Stream, handler: RegisteredHandler, options: BidiOptions, socket: Socket) {
    super();
    this.#stream = stream;
    this.#handler = handler;
    this.#options = options;
    this.#socket = socket;
    this.metadata = fieldReader(stream.headers);
    stream.autoGrant = false;
    stream.onData = (chunk) => this.#receive(chunk);
    stream.onEnd = () => {
      this.#clientEnded = true;
      this.#flush();
    };
    stream.onReset = () => this.#cancel();
    stream.onDrain = () => {
      this.writableNeedDrain = false;
      this.emit('drain');
    };
    // An 'error' event is how a handler ends the call with a status (grpc-js's contract).
    this.on('error', (e: { code?: number; details?: string }) => this.#finish(typeof e.code === 'number' ? e.code : GrpcCode.Unknown, e.details ?? 'Unknown error'));
  }

  /** Starts the handler on this call. */
  serve(): void {
    try {
      (this.#handler.func as unknown as (call: H2BidiCall) => void)(this);
    } catch {
      this.#finish(GrpcCode.Unknown, 'Unknown error');
    }
  }

  getAuthContext(): { readonly sslPeerCertificate?: PeerCertificate } | null {
    return tlsAuthContext(this.#socket);
  }

  getPeer(): string {
    const s = this.#socket;
    return s.remoteAddress === undefined ? 'unknown' : `${s.remoteAddress}:${s.remotePort}`;
  }

  pause(): this {
    this.#paused = true;
    return this;
  }

  resume(): this {
    if (!this.#paused) return this;
    this.#paused = false;
    this.#flush();
    return this;
  }

  write(message: unknown): boolean {
    if (this.#done) return false;
    const reply = replyFrame(this.#handler, message, this.#options);
    if ('code' in reply) {
      this.#finish(reply.code, reply.details);
      return false;
    }
    if (!this.#headersSent) {
      this.#headersSent = true;
      this.#stream.respond(RESPONSE_BLOCK);
    }
    const room = this.#stream.write(reply.frame);
    if (!room) this.writableNeedDrain = true;
    return room;
  }

  end(): void {
    if (this.#done) return;
    this.#done = true;
    if (!this.#headersSent) this.#stream.respond(RESPONSE_BLOCK);
    this.#stream.end(OK_BLOCK);
    this.#close();
  }

  // ---- requests ----

  #receive(chunk: Buffer): void {
    if (this.#done) return;
    this.#input = this.#input.length === 0 ? chunk : Buffer.concat([this.#input, chunk]);
    while (this.#input.length >= PREFIX_BYTES) {
      const length = this.#input.readUInt32BE(1);
      if (length > this.#options.maxRecvBytes) {
        return this.#finish(GrpcCode.ResourceExhausted, `Received message larger than max (${length} vs ${this.#options.maxRecvBytes})`);
      }
      if (this.#input.length < PREFIX_BYTES + length) break;
      if (this.#input[0] !== 0) return this.#finish(GrpcCode.Internal, 'Received compressed message but "grpc-encoding" header was identity');
      const bytes = this.#input.subarray(PREFIX_BYTES, PREFIX_BYTES + length);
      this.#input = this.#input.subarray(PREFIX_BYTES + length);
      let message: unknown;
      try {
        message = this.#handler.deserialize(bytes);
      } catch {
        return this.#finish(GrpcCode.Internal, 'Error deserializing request');
      }
      this.#held.push({ message, bytes: PREFIX_BYTES + length });
    }
    this.#flush();
  }

  /** Delivers held messages while not paused; then 'end' once the client is done. */
  #flush(): void {
    while (!this.#paused && !this.#done && this.#held.length > 0) {
      const next = this.#held.shift()!;
      this.#stream.consumed(next.bytes);
      this.emit('data', next.message);
    }
    if (this.#clientEnded && this.#held.length === 0 && !this.#endEmitted && !this.#done) {
      this.#endEmitted = true;
      if (this.#input.length > 0) return this.#finish(GrpcCode.Internal, 'Received a partial message before the end of the stream');
      this.emit('end');
    }
  }

  // ---- ends ----

  /** Ends the call with a status (trailers-only when nothing was written yet). */
  #finish(code: number, details: string): void {
    if (this.#done) return;
    this.#done = true;
    if (this.#headersSent) this.#stream.end(trailerBlock(code, details));
    else sendStatus(this.#stream, code, details);
    this.#close();
  }

  #cancel(): void {
    if (this.#done) return;
    this.#done = true;
    this.cancelled = true;
    this.emit('cancelled');
    this.#close();
  }

  #close(): void {
    this.#held.length = 0;
    this.writableNeedDrain = false;
    this.emit('close');
  }
}
