/**
 * The pure checks behind the connection's request rules: request-fields.ts (what a request
 * announces when well-formed), stream-history.ts (idle / never used / closed ids) and
 * status-only-block.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRequestFields, checkTrailerFields } from '../../../server/transport/h2/request-fields.js';
import { statusOnlyBlock } from '../../../server/transport/h2/status-only-block.js';
import { StreamHistory } from '../../../server/transport/h2/stream-history.js';
import { decodeAll } from './h2-raw-peer.js';

const f = (pairs: [string, string][]) => pairs.map(([name, value]) => ({ name, value, neverIndex: false }));

void test('a well-formed request: method, path and content-length (repeated with one value)', () => {
  assert.deepEqual(checkRequestFields(f([[':method', 'POST'], [':scheme', 'https'], [':path', '/a'], ['content-length', '12'], ['content-length', '12']])), {
    kind: 'ok',
    method: 'POST',
    path: '/a',
    contentLength: 12,
  });
  assert.deepEqual(checkRequestFields(f([[':method', 'CONNECT'], [':authority', 'h:1']])), { kind: 'ok', method: 'CONNECT', path: undefined, contentLength: undefined });
  assert.equal(checkRequestFields(f([[':method', 'GET'], [':scheme', 'http'], [':path', '/'], ['content-length', '1'], ['content-length', '2']])).kind, 'malformed');
  assert.equal(checkRequestFields(f([[':method', 'GET'], [':scheme', 'http'], [':path', '*'], ['x-a', 'v a'], ["!#$%&'*+-.^_`|~09az", '']])).kind, 'ok');
});

void test('trailers: regular fields only', () => {
  assert.equal(checkTrailerFields(f([['grpc-status', '0']])).kind, 'ok');
  assert.equal(checkTrailerFields(f([[':status', '200']])).kind, 'malformed');
  assert.equal(checkTrailerFields(f([['Grpc-Status', '0']])).kind, 'malformed');
  assert.equal(checkTrailerFields(f([['connection', 'x']])).kind, 'malformed');
});

void test('stream ids: idle above the last, never used in a skipped range, closed with how, forgotten as closed', () => {
  const h = new StreamHistory(2, 1);
  h.opened(1);
  h.opened(7); // 3 and 5 skipped
  h.closed(1, 'ended');
  assert.deepEqual(h.stateOf(9), { state: 'idle' });
  assert.deepEqual(h.stateOf(3), { state: 'unused' });
  assert.deepEqual(h.stateOf(5), { state: 'unused' });
  assert.deepEqual(h.stateOf(1), { state: 'closed', how: 'ended' });
  h.closed(7, 'reset-sent');
  h.opened(9);
  h.closed(9, 'reset-received'); // 1 forgotten (2 remembered)
  assert.deepEqual(h.stateOf(1), { state: 'closed', how: undefined });
  h.opened(15); // a second gap: the first is forgotten (1 remembered)
  assert.deepEqual(h.stateOf(13), { state: 'unused' });
  assert.deepEqual(h.stateOf(3), { state: 'closed', how: undefined });
  const fresh = new StreamHistory();
  fresh.opened(5);
  assert.deepEqual([fresh.stateOf(1), fresh.stateOf(3)], [{ state: 'unused' }, { state: 'unused' }]);
});

void test('a status-only block decodes to :status alone', () => {
  assert.deepEqual(decodeAll(statusOnlyBlock(431)), [[':status', '431']]);
  assert.throws(() => statusOnlyBlock(42));
});
