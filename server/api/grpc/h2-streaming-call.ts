/**
 * A streaming call (bidi: Watch, LeaseKeepAlive; server-streaming: Health.Watch, Snapshot
 * without images, Election.Observe) answered on our own HTTP/2 stream, shaped like the grpc-js
 * `ServerDuplexStream` / `ServerWritableStream` its handler was written for, so the registered
 * handler runs unchanged.
 *
 * What the handlers use of it, and how it behaves (as grpc-js 1.14 does):
 * - `request` (server-streaming: the one request, read before the handler runs),
 *   `metadata.get(key)`, `getAuthContext()`, `getPeer()`;
 * - bidi: 'data' with each request message, inflated if compressed (message-body.ts) and
 *   deserialized by the method, in order; 'end' after the last one once the client has
 *   half-closed;
 * - `pause()` / `resume()`: messages are held while paused, and request bytes are granted back
 *   to the client only as messages are delivered, so a paused call closes the client's window;
 * - `write(message)`: framed (the method's framer, or its serializer) and written; the response
 *   headers go with the first one. Returns false while the stream waits for the client's
 *   window; 'drain' follows, and `writableNeedDrain` tells in between;
 * - `end()`: the OK trailers after every message written; an 'error' event `{ code, details }`
 *   ends the call with that status (a trailers-only response if nothing was written);
 * - `grpc-timeout`: at the deadline the call ends with DEADLINE_EXCEEDED "Deadline exceeded"
 *   and the handler sees 'cancelled'; a value that does not parse ends it with INTERNAL;
 * - the client's RST_STREAM or its connection closing: 'cancelled', then 'close'. Every end
 *   emits 'close' once.
 *
 * Request framing errors end the call with grpc-js's statuses and texts: a message over the
 * receive limit (RESOURCE_EXHAUSTED "Received message larger than max (N vs M)"), a compressed
 * message the call's encoding does not allow, one that does not deserialize (INTERNAL "Error
 * deserializing request"). A response over the send limit ends it with RESOURCE_EXHAUSTED
 * "Sent message larger than max (N vs. M)". A handler that throws ends the call with INTERNAL
 * and is reported through `onFault`.
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { PeerCertificate } from 'node:tls';
import type { H2Stream } from '../../transport/h2/h2-stream.js';
import { callTimeoutMs } from './call-deadline.js';
import { GrpcCode } from './codes.js';
import type { MetadataReader } from './context.js';
import { fieldReader, OK_BLOCK, peerOf, RESPONSE_BLOCK, sendStatus, tlsAuthContext, trailerBlock } from './h2-call-blocks.js';
import { isRefusal, messageBody } from './message-body.js';
import type { ServedMethod } from './method-table.js';
import { replyFrame, type ReplyOptions } from './reply-frame.js';
import { PREFIX_BYTES } from './request-message.js';

/** The receive and send limits, the reply framers, and where a handler's throw is reported. */
export interface StreamingOptions extends ReplyOptions {
  readonly maxRecvBytes: number;
  readonly onFault?: (err: unknown, stream: H2Stream) => void;
}

/** The text a call ends with when its handler threw. */
export const HANDLER_FAULT = 'internal error while handling the call';

export class H2StreamingCall extends EventEmitter {
  readonly metadata: MetadataReader;
  /** Server-streaming calls: the request, read before the handler runs. */
  readonly request: unknown;
  writableNeedDrain = false;
  cancelled = false;
  readonly #stream: H2Stream;
  readonly #method: ServedMethod;
  readonly #options: StreamingOptions;
  readonly #socket: Socket;
  readonly #encoding: string | undefined;
  /** Received bytes not yet cut into messages. */
  #input: Buffer = Buffer.alloc(0);
  /** Whole messages (with their framed sizes) waiting while paused. */
  readonly #held: Array<{ readonly message: unknown; readonly bytes: number }> = [];
  #paused = false;
  #clientEnded = false;
  #endEmitted = false;
  #headersSent = false;
  #done = false;
  #deadline: NodeJS.Timeout | undefined;

  /** `request`: given for a server-streaming call (its request already read); bidi calls read theirs as 'data'. */
  constructor(stream: H2Stream, method: ServedMethod, options: StreamingOptions, socket: Socket, request?: { readonly request: unknown }) {
    super();
    this.#stream = stream;
    this.#method = method;
    this.#options = options;
    this.#socket = socket;
    this.#encoding = stream.header('grpc-encoding');
    this.metadata = fieldReader(stream.headers);
    this.request = request?.request;
    if (request === undefined) {
      stream.autoGrant = false;
      stream.onData = (chunk) => this.#receive(chunk);
      stream.onEnd = () => {
        this.#clientEnded = true;
        this.#flush();
      };
    }
    stream.onReset = () => this.#cancel();
    stream.onDrain = () => {
      this.writableNeedDrain = false;
      this.emit('drain');
    };
    // An 'error' event is how a handler ends the call with a status (grpc-js's contract).
    this.on('error', (e: { code?: number; details?: string }) => this.#finish(typeof e.code === 'number' ? e.code : GrpcCode.Unknown, e.details ?? 'Unknown error'));
  }

  /** Starts the handler on this call (after its deadline, if it has one, is set). */
  serve(): void {
    const timeout = callTimeoutMs(this.#stream.header('grpc-timeout'));
    if (timeout !== undefined && typeof timeout === 'object') return this.#finish(timeout.code, timeout.details);
    if (timeout !== undefined) {
      this.#deadline = setTimeout(() => this.#expire(), timeout);
      this.#deadline.unref();
    }
    try {
      (this.#method.func as unknown as (call: H2StreamingCall) => void)(this);
    } catch (e) {
      this.#options.onFault?.(e, this.#stream);
      this.#finish(GrpcCode.Internal, HANDLER_FAULT);
    }
  }

  getAuthContext(): { readonly sslPeerCertificate?: PeerCertificate } | null {
    return tlsAuthContext(this.#socket);
  }

  getPeer(): string {
    return peerOf(this.#socket);
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
    const reply = replyFrame(this.#method, message, this.#options);
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
      const body = messageBody(this.#input[0]!, this.#input.subarray(PREFIX_BYTES, PREFIX_BYTES + length), this.#encoding, this.#options.maxRecvBytes);
      this.#input = this.#input.subarray(PREFIX_BYTES + length);
      if (isRefusal(body)) return this.#finish(body.code, body.details);
      let message: unknown;
      try {
        message = this.#method.deserialize(body);
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

  #expire(): void {
    if (this.#done) return;
    this.#done = true;
    if (this.#headersSent) this.#stream.end(trailerBlock(GrpcCode.DeadlineExceeded, 'Deadline exceeded'));
    else sendStatus(this.#stream, GrpcCode.DeadlineExceeded, 'Deadline exceeded');
    this.cancelled = true;
    this.emit('cancelled');
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
    clearTimeout(this.#deadline);
    this.#held.length = 0;
    this.writableNeedDrain = false;
    this.emit('close');
  }
}
