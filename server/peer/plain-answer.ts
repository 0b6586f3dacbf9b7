/**
 * Plain-text HTTP answers of the peer listener, shaped like Go's `http.Error` (body + newline,
 * `text/plain; charset=utf-8`, `X-Content-Type-Options: nosniff`), for normal responses and
 * for raw sockets that asked for an upgrade.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** @param close ask the client to close the connection after this answer. */
export function answerPlain(res: ServerResponse, status: number, body: string, close = false): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = status === 204 ? '' : body + '\n';
  res.writeHead(status, {
    ...(status === 204 ? {} : { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** Writes a full HTTP/1.1 answer on a socket that asked for an upgrade, then ends it. */
export function answerRaw(socket: Duplex, status: number, body: string, headers: Readonly<Record<string, string>> = {}): void {
  const text = body + '\n';
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: text/plain; charset=utf-8',
    'X-Content-Type-Options: nosniff',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(lines.join('\r\n') + '\r\n\r\n' + text);
}
