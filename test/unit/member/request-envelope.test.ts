// The entry bytes of a proposal built around the client's own encoding decode exactly like
// the generated encoder's output, for every request kind that may travel raw, with and
// without the caller's identity in the header.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { InternalRequest } from '../../../proto/gen/kvstore/internal.js';
import { EnvelopeEncoder, type Request } from '../../../server/member/request-envelope.js';

const put = pb.PutRequest.fromJSON({ key: Buffer.from('k').toString('base64'), value: Buffer.alloc(300, 7).toString('base64'), lease: '-5', prevKv: true });
const del = pb.DeleteRangeRequest.fromJSON({ key: Buffer.from('a').toString('base64'), rangeEnd: Buffer.from('z').toString('base64') });
const txn = pb.TxnRequest.fromJSON({ compare: [{ key: Buffer.from('k').toString('base64'), target: 'VERSION', version: '3' }], success: [{ requestPut: { key: Buffer.from('x').toString('base64') } }] });

const cases: Array<{ request: Request; raw: Uint8Array }> = [
  { request: { $case: 'put', value: put }, raw: pb.PutRequest.encode(put).finish() },
  { request: { $case: 'deleteRange', value: del }, raw: pb.DeleteRangeRequest.encode(del).finish() },
  { request: { $case: 'txn', value: txn }, raw: pb.TxnRequest.encode(txn).finish() },
];

const callers = [undefined, { username: 'alice', revision: 7 }, { username: 'ü'.repeat(70), revision: 2 ** 40 }, { username: '', revision: 1 }];

for (const memberId of [0n, 1n, 0x8e9e05c52164694dn, 2n ** 64n - 1n]) {
  for (const id of [0n, 127n, 128n, 1n << 56n]) {
    void test(`raw envelopes equal the generated encoding (member ${memberId.toString(16)}, id ${id})`, () => {
      const enc = new EnvelopeEncoder(memberId);
      for (const caller of callers) {
        for (const { request, raw } of cases) {
          const header = enc.header(id, caller);
          const expected = Buffer.from(InternalRequest.encode({ header, request }).finish());
          const built = enc.encode(header, request, raw);
          assert.deepEqual(built, expected, `${request.$case} ${caller?.username}`);
          assert.deepEqual(InternalRequest.decode(built), InternalRequest.decode(expected));
        }
      }
    });
  }
}

void test('the header names the caller only when one is given; without one the bytes are those of an older entry', () => {
  const enc = new EnvelopeEncoder(9n);
  assert.deepEqual(enc.header(3n), { id: 3n, memberId: 9n, authRevision: 0n, username: '' });
  assert.deepEqual(enc.header(3n, { username: 'bob', revision: 4 }), { id: 3n, memberId: 9n, authRevision: 4n, username: 'bob' });
  // An entry written before auth_revision/username existed: header fields 1 and 2 only.
  const older = Buffer.from([0x0a, 0x04, 0x08, 0x03, 0x10, 0x09, 0x1a, 0x03, 0x0a, 0x01, 0x6b]);
  assert.deepEqual(enc.encode(enc.header(3n), { $case: 'deleteRange', value: pb.DeleteRangeRequest.fromJSON({ key: 'aw==' }) }), older);
  const decoded = InternalRequest.decode(older);
  assert.equal(decoded.header?.authRevision, 0n);
  assert.equal(decoded.header?.username, '');
});

void test('an empty request and a request kind that never travels raw use the generated encoder', () => {
  const enc = new EnvelopeEncoder(9n);
  const empty = pb.PutRequest.fromJSON({});
  const header = enc.header(3n, { username: 'u', revision: 2 });
  const built = enc.encode(header, { $case: 'put', value: empty }, pb.PutRequest.encode(empty).finish());
  assert.deepEqual(built, Buffer.from(InternalRequest.encode({ header, request: { $case: 'put', value: empty } }).finish()));
  const compaction: Request = { $case: 'compaction', value: { revision: 5n, physical: true } };
  const h4 = enc.header(4n);
  assert.deepEqual(enc.encode(h4, compaction, new Uint8Array([1, 2])), Buffer.from(InternalRequest.encode({ header: h4, request: compaction }).finish()));
});
