// KVSTORE_GRPC_HTTP2: which HTTP/2 serves gRPC on the client port (our framing by default).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grpcHttp2 } from '../../../server/config/grpc-http2.js';
import { failure, run } from './helpers.js';

void test('unset, empty or "own" is our framing; "node" is Node\'s HTTP/2', () => {
  assert.deepEqual(grpcHttp2({}), { ok: true, value: 'own' });
  assert.deepEqual(grpcHttp2({ KVSTORE_GRPC_HTTP2: '' }), { ok: true, value: 'own' });
  assert.deepEqual(grpcHttp2({ KVSTORE_GRPC_HTTP2: 'own' }), { ok: true, value: 'own' });
  assert.deepEqual(grpcHttp2({ KVSTORE_GRPC_HTTP2: 'node' }), { ok: true, value: 'node' });
});

void test('a member configured with it gets no "unrecognized environment variable" warning', () => {
  assert.deepEqual(run([], { KVSTORE_GRPC_HTTP2: 'node' }).warnings, []);
  assert.deepEqual(run(['--config-file=c.yml'], { KVSTORE_GRPC_HTTP2: 'own' }, { 'c.yml': 'name: a\n' }).warnings, []);
});

void test('any other value is a configuration error naming the variable and the accepted values', () => {
  const message = failure([], { KVSTORE_GRPC_HTTP2: 'nghttp2' });
  assert.match(message, /KVSTORE_GRPC_HTTP2/);
  assert.match(message, /want "own" or "node"/);
});
