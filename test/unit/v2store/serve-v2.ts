/**
 * Serves createV2Router(port) on 127.0.0.1:0 in a bare koa app, and a small HTTP client
 * that sends form or JSON bodies with their length. Used by test/unit/http/v2-*.test.ts.
 */
import Koa from 'koa';
import { createServer, request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createV2Router } from '../../../server/api/http/v2/router.js';
import type { MemoryPort } from './memory-port.js';

export interface ServedV2 {
  readonly port: number;
  close(): Promise<void>;
}

export async function serveV2(port: MemoryPort): Promise<ServedV2> {
  const app = new Koa();
  app.use(createV2Router(port, { now: () => port.nowMs }).routes());
  const handler = app.callback();
  const server = createServer((req, res) => {
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Reply {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export function send(port: number, method: string, path: string, body?: string, contentType = 'application/x-www-form-urlencoded'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (body !== undefined) {
      headers['Content-Type'] = contentType;
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A long-poll in progress: resolves headers first, then each chunk. */
export interface OpenWait {
  readonly headers: Promise<IncomingMessage>;
  /** Next chunk of body text (undefined at the end). */
  next(): Promise<string | undefined>;
  /** Drops the connection. */
  abort(): void;
}

export function openWait(port: number, path: string): OpenWait {
  const queue: (string | undefined)[] = [];
  const waiters: ((v: string | undefined) => void)[] = [];
  const push = (v: string | undefined): void => {
    const w = waiters.shift();
    if (w) w(v);
    else queue.push(v);
  };
  let req: ClientRequest | undefined;
  const headers = new Promise<IncomingMessage>((resolve, reject) => {
    req = request({ host: '127.0.0.1', port, method: 'GET', path, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => push(c));
      res.on('end', () => push(undefined));
      res.on('error', () => push(undefined));
      resolve(res);
    });
    req.on('error', (e) => {
      push(undefined);
      reject(e);
    });
    req.end();
  });
  headers.catch(() => undefined);
  return {
    headers,
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiters.push(resolve))),
    abort: () => req?.destroy(),
  };
}
