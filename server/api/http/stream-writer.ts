/**
 * Writes a gateway streaming response (ETCD-FACTS §4.2): chunked `application/json`, one
 * `{"result":<message>}\n` per response message; a failure is one
 * `{"error":{grpc_code,http_code,message,http_status}}` chunk (no newline after it, like
 * grpc-gateway) that ends the response.
 *
 * Contract:
 * - the status line and headers go out with the first chunk: 200 for a result; for an error
 *   before any result, the HTTP status of its gRPC code;
 * - `reject()` refuses the call itself (its first request message was unreadable): before any
 *   output it answers like a unary failure (`{"error","code","message"}`, not chunked), as
 *   grpc-gateway does; after output it behaves as `error()`;
 * - after `error()` or `end()`, or once the client has gone (`closed`), writes are ignored;
 * - `onClose` listeners run once when the response is finished or the connection dropped.
 */
import type { ServerResponse } from 'node:http';
import { streamErrorChunk, streamResultChunk, unaryErrorBody, type GatewayStatus } from './gateway-status.js';
import { httpStatusFromGrpcCode } from './http-status.js';

export interface StreamWriter {
  result(message: unknown): void;
  error(status: GatewayStatus): void;
  reject(status: GatewayStatus): void;
  end(): void;
  readonly closed: boolean;
  /** Resolves when the response is over (ended by us or dropped by the client). */
  readonly done: Promise<void>;
}

const HEADERS = { 'Content-Type': 'application/json' } as const;

export function createStreamWriter(res: ServerResponse): StreamWriter {
  let finished = false;
  let gone = false;
  const done = new Promise<void>((resolve) => {
    res.once('close', () => {
      gone = true;
      resolve();
    });
  });
  const writable = (): boolean => !finished && !gone && !res.destroyed;

  return {
    result(message) {
      if (!writable()) return;
      if (!res.headersSent) res.writeHead(200, HEADERS);
      res.write(streamResultChunk(message));
    },
    error(status) {
      if (!writable()) return;
      finished = true;
      if (!res.headersSent) res.writeHead(httpStatusFromGrpcCode(status.code), HEADERS);
      res.end(streamErrorChunk(status));
    },
    reject(status) {
      if (!writable()) return;
      if (res.headersSent) return this.error(status);
      finished = true;
      const body = unaryErrorBody(status);
      res.writeHead(httpStatusFromGrpcCode(status.code), {
        ...HEADERS,
        'Content-Length': String(Buffer.byteLength(body)),
      });
      res.end(body);
    },
    end() {
      if (!writable()) return;
      finished = true;
      if (!res.headersSent) res.writeHead(200, HEADERS);
      res.end();
    },
    get closed() {
      return !writable();
    },
    done,
  };
}
