/** The request path's PutRequest decoder reads what the generated decoder reads, without copying. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PutRequest } from '../../../proto/gen/etcd/rpc.js';
import { decodePutRequest } from '../../../server/api/grpc/put-request-decoder.js';

const put = (p: Partial<PutRequest>): PutRequest => ({
  key: Buffer.alloc(0), value: Buffer.alloc(0), lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false, ...p,
});

const cases: PutRequest[] = [
  put({ key: Buffer.from('k'), value: Buffer.from('v') }),
  put({}),
  put({ key: Buffer.alloc(200, 1), value: Buffer.alloc(100 * 1024, 2), lease: 2n ** 40n, prevKv: true }),
  put({ key: Buffer.from('flags'), ignoreValue: true, ignoreLease: true }),
  put({ key: Buffer.from('negative lease'), lease: -5n }),
  put({ key: Buffer.from('big lease'), lease: 2n ** 62n }),
];

void test('decodes as the generated decoder does; key and value are views into the request', () => {
  for (const p of cases) {
    const bytes = Buffer.from(PutRequest.encode(p).finish());
    const got = decodePutRequest(bytes);
    assert.deepEqual(got, PutRequest.decode(bytes));
    if (p.value.length > 0 && p.lease >= 0n && p.lease < 2n ** 49n) assert.equal(got.value.buffer, bytes.buffer, 'the value is a view');
  }
});

void test('a repeated field keeps its last value, as protobuf says', () => {
  const bytes = Buffer.concat([PutRequest.encode(put({ key: Buffer.from('a'), value: Buffer.from('1') })).finish(), PutRequest.encode(put({ key: Buffer.from('b') })).finish()]);
  assert.deepEqual(decodePutRequest(bytes), PutRequest.decode(bytes));
  assert.equal(decodePutRequest(bytes).key.toString(), 'b');
});

void test('unknown fields and broken bytes go to the generated decoder', () => {
  const unknown = Buffer.concat([PutRequest.encode(put({ key: Buffer.from('k') })).finish(), Buffer.from([0x38, 0x01])]);
  assert.deepEqual(decodePutRequest(unknown), PutRequest.decode(unknown));
  const truncated = Buffer.from([0x0a, 0x05, 0x61]);
  assert.throws(() => decodePutRequest(truncated));
  assert.throws(() => PutRequest.decode(truncated));
});
