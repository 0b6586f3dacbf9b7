/**
 * Pure parts of the client library: key ranges, request building, error classification by
 * message text, peer URL validation.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorFromStatus, sendTooLarge, statusText } from '../../../ctl/client/errors.js';
import { ETCD_ERROR_MESSAGES } from '../../../ctl/client/etcd-errors.js';
import { prefixEnd, resolveRange } from '../../../ctl/client/keys.js';
import { compare, Op, putRequest, rangeRequest, SortOrder, SortTarget } from '../../../ctl/client/ops.js';
import { peerUrlError } from '../../../ctl/client/peer-urls.js';

void describe('keys', () => {
  void it('prefixEnd increments the last byte below 0xff', () => {
    assert.deepEqual(prefixEnd(Buffer.from('abc')), Buffer.from('abd'));
    assert.deepEqual(prefixEnd(Buffer.from([0x61, 0xff])), Buffer.from([0x62]));
    assert.deepEqual(prefixEnd(Buffer.from([0xff, 0xff])), Buffer.from([0]));
  });
  void it('empty key with prefix or from-key means every key', () => {
    assert.deepEqual(resolveRange('', { prefix: true }), { key: Buffer.from([0]), rangeEnd: Buffer.from([0]) });
    assert.deepEqual(resolveRange('', { fromKey: true }), { key: Buffer.from([0]), rangeEnd: Buffer.from([0]) });
    assert.deepEqual(resolveRange('b', { fromKey: true }), { key: Buffer.from('b'), rangeEnd: Buffer.from([0]) });
    assert.deepEqual(resolveRange('a', { rangeEnd: 'c' }), { key: Buffer.from('a'), rangeEnd: Buffer.from('c') });
  });
});

void describe('ops', () => {
  void it('range requests carry every field with proto defaults', () => {
    const r = rangeRequest('k', { prefix: true, limit: 2n, sortOrder: SortOrder.Descend, sortTarget: SortTarget.Create, maxCreateRevision: 5n });
    assert.deepEqual([r.key.toString(), r.rangeEnd.toString(), r.limit, r.sortOrder, r.sortTarget, r.maxCreateRevision, r.revision], ['k', 'l', 2n, 2, 2, 5n, 0n]);
  });
  void it('compares and transaction operations', () => {
    const c = compare('k', '!=', { target: 'value', value: 'v' });
    assert.deepEqual([c.result, c.target, c.targetUnion], [3, 3, { $case: 'value', value: Buffer.from('v') }]);
    assert.equal(compare('k', '<', { target: 'lease', value: 1n }).target, 4);
    assert.equal(Op.put('k', 'v', { lease: 7n }).request?.$case, 'requestPut');
    assert.equal(putRequest('k', 'v', { ignoreLease: true }).ignoreLease, true);
  });
});

void describe('errors', () => {
  void it('a known etcd message becomes its kind and prints bare', () => {
    const e = errorFromStatus(11, ETCD_ERROR_MESSAGES.Compacted);
    assert.deepEqual([e.kind, e.code, e.message], ['Compacted', 11, 'etcdserver: mvcc: required revision has been compacted']);
    const big = errorFromStatus(3, 'etcdserver: request is too large');
    assert.equal(big.kind, 'RequestTooLarge');
  });
  void it('an unknown status keeps gRPC-Go form; receive limit is reworded', () => {
    const e = errorFromStatus(2, 'something odd');
    assert.deepEqual([e.kind, e.message], ['Grpc', 'rpc error: code = Unknown desc = something odd']);
    const r = errorFromStatus(8, 'Received message larger than max (5000 vs 4096)');
    assert.deepEqual([r.kind, r.details], ['ReceiveTooLarge', 'grpc: received message larger than max (5000 vs. 4096)']);
    assert.equal(sendTooLarge(10, 5).details, 'grpc: trying to send message larger than max (10 vs. 5)');
    assert.equal(statusText(14, 'x'), 'rpc error: code = Unavailable desc = x');
  });
});

void describe('peer URL validation', () => {
  void it('accepts host:port URLs of the four schemes, refuses the rest with etcd texts', () => {
    assert.equal(peerUrlError(['http://127.0.0.1:2380', 'https://[::1]:2380', 'unix://sock:1']), undefined);
    assert.equal(peerUrlError(['notaurl']), 'URL scheme must be http, https, unix, or unixs: notaurl');
    assert.equal(peerUrlError(['ftp://h:1']), 'URL scheme must be http, https, unix, or unixs: ftp://h:1');
    assert.equal(peerUrlError(['http://h']), 'URL address does not have the form "host:port": http://h');
    assert.equal(peerUrlError(['http://h:1/p']), 'URL must not contain a path: http://h:1/p');
  });
});
