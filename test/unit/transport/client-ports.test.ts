/**
 * client-ports.ts (pure): one listener per host:port, `http://` and `https://` of one host:port
 * merged (etcd's TestV2CurlClientBoth configuration), port 0 never shared; and tls-or-plain.ts's
 * first-byte rule.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientPorts } from '../../../server/transport/client-ports.js';
import { opensTlsRecord } from '../../../server/transport/tls-or-plain.js';

const urls = (...texts: string[]): URL[] => texts.map((t) => new URL(t));
const shape = (ports: ReturnType<typeof clientPorts>): string[] => ports.map((p) => `${p.url.href} plain=${p.plain} secure=${p.secure}`);

void test('http and https on one host:port make one port serving both', () => {
  assert.deepEqual(shape(clientPorts(urls('http://127.0.0.1:2379', 'https://127.0.0.1:2379'))), ['http://127.0.0.1:2379/ plain=true secure=true']);
  assert.deepEqual(shape(clientPorts(urls('https://localhost:2379', 'http://localhost:2379'))), ['https://localhost:2379/ plain=true secure=true']);
});

void test('different hosts or ports stay apart, in the order given', () => {
  assert.deepEqual(shape(clientPorts(urls('http://127.0.0.1:2379', 'https://127.0.0.1:2380', 'http://127.0.0.2:2379'))), [
    'http://127.0.0.1:2379/ plain=true secure=false',
    'https://127.0.0.1:2380/ plain=false secure=true',
    'http://127.0.0.2:2379/ plain=true secure=false',
  ]);
});

void test('port 0 (any free port) is never shared; other schemes keep their own entry', () => {
  assert.equal(clientPorts(urls('http://127.0.0.1:0', 'https://127.0.0.1:0')).length, 2);
  assert.deepEqual(shape(clientPorts(urls('unix://a:1', 'http://a:1'))), ['unix://a:1 plain=false secure=false', 'http://a:1/ plain=true secure=false']);
});

void test('a listed URL twice is one port', () => {
  assert.deepEqual(shape(clientPorts(urls('http://127.0.0.1:2379', 'http://127.0.0.1:2379'))), ['http://127.0.0.1:2379/ plain=true secure=false']);
});

void test('first byte: a TLS handshake record, or plaintext', () => {
  assert.equal(opensTlsRecord(Buffer.from([0x16, 0x03, 0x01])), true);
  assert.equal(opensTlsRecord(Buffer.from('GET / HTTP/1.1\r\n')), false);
  assert.equal(opensTlsRecord(Buffer.from('PRI * HTTP/2.0')), false);
  assert.equal(opensTlsRecord(Buffer.alloc(0)), false);
});
