/**
 * Header translation of the HTTP/2 relay (server/api/grpc/h2-relay-headers.ts): the request's
 * pseudo-headers (scheme forced to http, an `:authority` Node would refuse replaced by
 * localhost), repeated names as arrays, "never indexed" fields kept, malformed requests refused;
 * a raw response header list back into fields, in order.
 */
import assert from 'node:assert/strict';
import { sensitiveHeaders } from 'node:http2';
import { test } from 'node:test';
import { relayedFields, relayRequest } from '../../../server/api/grpc/h2-relay-headers.js';

const f = (name: string, value: string, neverIndex = false) => ({ name, value, neverIndex });
const base = [f(':method', 'POST'), f(':scheme', 'https'), f(':path', '/etcdserverpb.Watch/Watch')];

void test('pseudo-headers: method and path kept, scheme http, a plain authority kept', () => {
  const r = relayRequest([...base, f(':authority', '10.0.0.1:2379'), f('content-type', 'application/grpc')]);
  assert.equal(r.kind, 'ok');
  if (r.kind !== 'ok') return;
  assert.equal(r.headers[':method'], 'POST');
  assert.equal(r.headers[':path'], '/etcdserverpb.Watch/Watch');
  assert.equal(r.headers[':scheme'], 'http');
  assert.equal(r.headers[':authority'], '10.0.0.1:2379');
  assert.equal(r.headers['content-type'], 'application/grpc');
});

void test('an authority that is not host[:port] becomes localhost; so does a missing one', () => {
  for (const authority of ['http://127.0.0.1:2379', 'a b', 'host/path', '']) {
    const r = relayRequest([...base, f(':authority', authority)]);
    assert.equal(r.kind === 'ok' && r.headers[':authority'], 'localhost', authority);
  }
  for (const authority of ['[::1]:2379', 'localhost', 'etcd-0.etcd.svc:2379']) {
    const r = relayRequest([...base, f(':authority', authority)]);
    assert.equal(r.kind === 'ok' && r.headers[':authority'], authority);
  }
  const r = relayRequest(base);
  assert.equal(r.kind === 'ok' && r.headers[':authority'], 'localhost');
});

void test('repeated names become arrays in order; never-indexed fields are listed as sensitive', () => {
  const r = relayRequest([...base, f('x-a', '1'), f('token', 'secret', true), f('x-a', '2'), f('x-a', '3')]);
  assert.equal(r.kind, 'ok');
  if (r.kind !== 'ok') return;
  assert.deepEqual(r.headers['x-a'], ['1', '2', '3']);
  assert.deepEqual((r.headers as Record<symbol, unknown>)[sensitiveHeaders], ['token']);
});

void test('malformed: an unknown pseudo-header, a name that is not a lower-case token, no :path', () => {
  assert.equal(relayRequest([...base, f(':protocol', 'websocket')]).kind, 'malformed');
  assert.equal(relayRequest([...base, f('X-Upper', '1')]).kind, 'malformed');
  assert.equal(relayRequest([...base, f('bad name', '1')]).kind, 'malformed');
  assert.equal(relayRequest([f(':method', 'POST')]).kind, 'malformed');
});

void test('a raw response list becomes fields in order, repeats kept, sensitive ones never indexed', () => {
  const fields = relayedFields([':status', '200', 'x-m', 'a', 'x-m', 'b', 'set-token', 't'], ['set-token']);
  assert.deepEqual(fields, [f(':status', '200'), f('x-m', 'a'), f('x-m', 'b'), f('set-token', 't', true)]);
});
