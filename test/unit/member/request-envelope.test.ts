// The entry bytes of a proposal built around the client's own encoding decode exactly like
// the generated encoder's output, for every request kind that may travel raw.
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

for (const memberId of [0n, 1n, 0x8e9e05c52164694dn, 2n ** 64n - 1n]) {
  for (const id of [0n, 127n, 128n, 1n << 56n]) {
    void test(`raw envelopes equal the generated encoding (member ${memberId.toString(16)}, id ${id})`, () => {
      const enc = new EnvelopeEncoder(memberId);
      for (const { request, raw } of cases) {
        const expected = Buffer.from(InternalRequest.encode({ header: { id, memberId }, request }).finish());
        const built = enc.encode(id, request, raw);
        assert.deepEqual(built, expected, request.$case);
        assert.deepEqual(InternalRequest.decode(built), InternalRequest.decode(expected));
      }
    });
  }
}

void test('an empty request and a request kind that never travels raw use the generated encoder', () => {
  const enc = new EnvelopeEncoder(9n);
  const empty = pb.PutRequest.fromJSON({});
  const built = enc.encode(3n, { $case: 'put', value: empty }, pb.PutRequest.encode(empty).finish());
  assert.deepEqual(built, Buffer.from(InternalRequest.encode({ header: { id: 3n, memberId: 9n }, request: { $case: 'put', value: empty } }).finish()));
  const compaction: Request = { $case: 'compaction', value: { revision: 5n, physical: true } };
  assert.deepEqual(enc.encode(4n, compaction, new Uint8Array([1, 2])), Buffer.from(InternalRequest.encode({ header: { id: 4n, memberId: 9n }, request: compaction }).finish()));
});
