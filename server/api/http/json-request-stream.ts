/**
 * Feeds the JSON request messages of a client→server gateway stream (a request body holding
 * a sequence of JSON objects) to handlers as they arrive.
 *
 * Contract:
 * - `value` is called once per complete top-level JSON value, in body order;
 * - then exactly one of `end` (the body ended cleanly) or `error` (malformed JSON, a message
 *   above the limit: an Unknown status, as grpc-gateway answers a stream it cannot read) —
 *   unless the returned `detach` ran first;
 * - after `error` or `detach`, the rest of the body is read and discarded (the request is never
 *   destroyed, so the response can still be written on the same connection);
 * - a client that disconnects gets neither `end` nor `error`: the response side notices.
 */
import type { IncomingMessage } from 'node:http';
import type { GatewayStatus } from './gateway-status.js';
import { GatewayCode } from './http-status.js';
import { createJsonObjectStream } from './json-object-stream.js';

export interface JsonStreamHandlers {
  /** The text of one request message (normally an object; any JSON value, or junk, is passed on). */
  value(text: string): void;
  end(): void;
  error(status: GatewayStatus): void;
}

export function readJsonStream(req: IncomingMessage, maxValueChars: number, h: JsonStreamHandlers): () => void {
  const splitter = createJsonObjectStream(maxValueChars);
  let active = true;
  const detach = (): void => {
    if (!active) return;
    active = false;
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.resume();
  };
  const onData = (text: string): void => {
    const split = splitter.push(text);
    for (const v of split.values) {
      if (!active) return;
      h.value(v);
    }
    if (split.ok || !active) return;
    detach();
    h.error({ code: GatewayCode.Unknown, message: split.message });
  };
  const onEnd = (): void => {
    if (!active) return;
    const ended = splitter.end();
    for (const v of ended.values) {
      if (!active) return;
      h.value(v);
    }
    if (!active) return;
    detach();
    if (ended.ok) h.end();
    else h.error({ code: GatewayCode.Unknown, message: ended.message });
  };
  req.setEncoding('utf8');
  req.on('data', onData);
  req.on('end', onEnd);
  return detach;
}
