/**
 * One relayed stream: a client's `H2Stream` joined to the request it was turned into on the
 * in-process HTTP/2 session (h2-relay.ts). Bytes pass unchanged both ways.
 *
 * Client → server: each DATA chunk is written to the request; it is granted back to the client
 * (`consumed`) only once Node has sent it on, so the server's pace bounds the client's. The
 * client's END_STREAM ends the request; its RST_STREAM cancels it (CANCEL).
 *
 * Server → client, in order:
 * - the response headers become the client's header block; a trailers-only answer (headers with
 *   END_STREAM, how gRPC sends an error without a message) is sent as one block with END_STREAM;
 * - data is written as it comes (read from 'response' on: Node emits the data that came in the
 *   same read as the headers BEFORE its 'response' event); when the client's window is full (`write` → false) the request
 *   is paused until `onDrain`, so the server's window closes behind it;
 * - the trailers are sent when the request's readable side ends (not when Node reports them:
 *   while paused, data reported before them may still be buffered); an answer that ends without
 *   trailers ends with an empty trailer block (a valid, empty HEADERS with END_STREAM);
 * - an answer that stops short (the server reset the stream, the session failed) resets the
 *   client's stream with the server's code, INTERNAL_ERROR when there is none.
 * Once the answer is complete and the client is still sending, the request is closed (NO_ERROR),
 * as the client's stream is (RFC 9113 §8.1).
 *
 * Nothing here throws: the request's 'error' events are absorbed ('close' carries the outcome).
 */
import { constants, sensitiveHeaders, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { encodeFields, type HeaderField } from '../../transport/header-block-codec.js';
import type { H2Stream } from '../../transport/h2/h2-stream.js';
import { relayedFields } from './h2-relay-headers.js';

const EMPTY_BLOCK = encodeFields([]);

/** The fields Node reported for a header block, with "never indexed" kept. */
function fieldsOf(headers: IncomingHttpHeaders, raw: readonly string[] | undefined): HeaderField[] {
  const sensitive = (headers as Record<symbol, unknown>)[sensitiveHeaders] as readonly string[] | undefined;
  return relayedFields(raw ?? [], sensitive);
}

/** Joins `stream` to `req`: takes over the stream's callbacks and the request's events. */
export function joinStreams(stream: H2Stream, req: ClientHttp2Stream): void {
  let responded = false;
  let answered = false;
  let trailers: Buffer = EMPTY_BLOCK;

  stream.autoGrant = false;
  stream.onData = (chunk) => {
    req.write(chunk, () => stream.consumed(chunk.length));
  };
  stream.onEnd = () => req.end();
  stream.onReset = () => req.close(constants.NGHTTP2_CANCEL);
  stream.onDrain = () => req.resume();

  req.on('response', (headers: IncomingHttpHeaders, flags: number, raw?: string[]) => {
    responded = true;
    const endStream = (flags & constants.NGHTTP2_FLAG_END_STREAM) !== 0;
    if (endStream) answered = true;
    stream.respond(encodeFields(fieldsOf(headers, raw)), endStream);
    if (endStream) {
      finishRequest();
      req.resume(); // nothing to read: lets Node end and free the request
      return;
    }
    req.on('data', (chunk: Buffer) => {
      if (!stream.write(chunk) && !stream.closed) req.pause();
    });
  });
  req.on('trailers', (headers: IncomingHttpHeaders, _flags: number, raw?: string[]) => {
    trailers = encodeFields(fieldsOf(headers, raw));
  });
  req.on('end', () => {
    if (answered || !responded) return; // trailers-only (already sent), or no answer: 'close' resets
    answered = true;
    stream.end(trailers);
    finishRequest();
  });
  req.on('error', () => undefined);
  req.on('close', () => {
    if (!answered) stream.reset(req.rstCode !== undefined && req.rstCode !== constants.NGHTTP2_NO_ERROR ? req.rstCode : constants.NGHTTP2_INTERNAL_ERROR);
  });

  function finishRequest(): void {
    if (!stream.remoteEnded && !req.closed) req.close(constants.NGHTTP2_NO_ERROR);
  }
}
