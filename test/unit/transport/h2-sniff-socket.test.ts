/**
 * sniff-socket.ts on a real TCP connection: a broken HTTP/2 preface (or bytes no HTTP/1.x
 * request starts with) is closed without an answer; the preface and a request line are handed on.
 */
import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { sniffSocket } from '../../../server/transport/sniff-socket.js';

async function sniffed(bytes: string | Buffer): Promise<{ outcome: string; answer: Buffer }> {
  let outcome!: (o: string) => void;
  const decided = new Promise<string>((r) => (outcome = r));
  const accepted: Socket[] = [];
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    accepted.push(socket);
    sniffSocket(socket, 2000, { onDecided: (p) => outcome(p), onDropped: (why) => outcome(`dropped: ${why}`), onSocketError: () => undefined });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  client.on('error', () => undefined);
  const answer: Buffer[] = [];
  client.on('data', (d: Buffer) => answer.push(d));
  const ended = new Promise<void>((r) => client.on('end', () => r()));
  client.write(bytes);
  const o = await decided;
  if (o.startsWith('dropped')) await ended;
  client.destroy();
  for (const s of accepted) s.destroy();
  server.close();
  return { outcome: o, answer: Buffer.concat(answer) };
}

void test('a broken preface is closed without an answer (FIN)', async () => {
  const r = await sniffed('PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n');
  assert.match(r.outcome, /^dropped: neither/);
  assert.equal(r.answer.length, 0);
});

void test('binary bytes (a TLS ClientHello on a plaintext port) are closed without an answer', async () => {
  const r = await sniffed(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05]));
  assert.match(r.outcome, /^dropped: neither/);
});

void test('the preface and an HTTP/1.x request line are handed on', async () => {
  assert.equal((await sniffed('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')).outcome, 'h2');
  assert.equal((await sniffed('GET /health HTTP/1.1\r\n')).outcome, 'http1');
});
