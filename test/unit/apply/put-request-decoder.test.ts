/** The PutRequest and log-entry decoders read what the generated decoders read, without copying. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PutRequest } from '../../../proto/gen/etcd/rpc.js';
import { InternalRequest } from '../../../proto/gen/kvstore/internal.js';
import { decodeEntryRequest, decodePutRequest } from '../../../server/apply/put-request-decoder.js';
import { EnvelopeEncoder } from '../../../server/member/request-envelope.js';

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

void test('a log entry holding a put decodes as InternalRequest does; other entries too', () => {
  const header = { id: 77n, memberId: 0x1234n, authRevision: 3n, username: 'u' };
  const entries: InternalRequest[] = [
    { header, request: { $case: 'put', value: put({ key: Buffer.from('k'), value: Buffer.alloc(5000, 3), lease: 9n }) } },
    { header: undefined, request: { $case: 'put', value: put({ key: Buffer.from('no header') }) } },
    { header, request: { $case: 'compaction', value: { revision: 5n, physical: false } } },
    { header, request: undefined },
  ];
  for (const e of entries) {
    const bytes = Buffer.from(InternalRequest.encode(e).finish());
    assert.deepEqual(decodeEntryRequest(bytes), InternalRequest.decode(bytes));
  }
  const raw = Buffer.from(PutRequest.encode(put({ key: Buffer.from('raw'), value: Buffer.from('client bytes') })).finish());
  const enveloped = new EnvelopeEncoder(0x99n).encode(header, { $case: 'put', value: PutRequest.decode(raw) }, raw);
  assert.deepEqual(decodeEntryRequest(enveloped), InternalRequest.decode(enveloped));
});
