// The client port's HTTP handler barrier: a handler that throws or rejects gets a 500 (or a cut
// connection when its answer had started), the fault is reported once, the server goes on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedHttpHandler } from '../../../server/api/http/guarded-handler.js';

function get(port: number, path: string): Promise<{ status: number; body: string } | 'cut'> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve('cut'));
    });
    req.on('error', () => resolve('cut'));
    req.end();
  });
}

void test('throws, rejections and late faults: 500 or a cut connection, each reported once; the server keeps serving', async () => {
  const faults: string[] = [];
  const handler = guardedHttpHandler(
    (req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/throw') throw new Error('sync');
      if (req.url === '/reject') return Promise.reject(new Error('async'));
      if (req.url === '/late') {
        res.writeHead(200);
        res.write('partial');
        return Promise.reject(new Error('late'));
      }
      res.end('ok');
    },
    (err, req) => faults.push(`${req.url} ${(err as Error).message}`),
  );
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    assert.deepEqual(await get(port, '/throw'), { status: 500, body: '{"error":"internal error while handling the request"}' });
    assert.deepEqual(await get(port, '/reject'), { status: 500, body: '{"error":"internal error while handling the request"}' });
    assert.equal(await get(port, '/late'), 'cut');
    assert.deepEqual(await get(port, '/fine'), { status: 200, body: 'ok' });
    assert.deepEqual(faults, ['/throw sync', '/reject async', '/late late']);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
