/** The record encoder writes the generated encoder's bytes, and the decoder reads them back. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { KeyValue } from '../../../proto/gen/etcd/kv.js';
import { decodeKeyValue, encodeKeyValue } from '../../../server/mvcc/kv-codec.js';

const cases: KeyValue[] = [
  { key: Buffer.from('a'), createRevision: 1n, modRevision: 1n, version: 1n, value: Buffer.from('v'), lease: 0n },
  { key: Buffer.from('k'), createRevision: 0n, modRevision: 0n, version: 0n, value: Buffer.alloc(0), lease: 0n },
  { key: Buffer.alloc(0), createRevision: 0n, modRevision: 0n, version: 0n, value: Buffer.alloc(0), lease: 0n },
  { key: Buffer.alloc(300, 7), createRevision: 2n ** 32n, modRevision: 2n ** 35n - 1n, version: 2n ** 35n, value: Buffer.alloc(100 * 1024, 9), lease: 2n ** 62n },
  { key: Buffer.from('neg'), createRevision: 127n, modRevision: 128n, version: 16383n, value: Buffer.from('x'), lease: -1n },
  { key: Buffer.from('max'), createRevision: 2n ** 63n - 1n, modRevision: 2n ** 49n, version: 2n ** 56n + 3n, value: Buffer.alloc(1 << 20, 1), lease: -(2n ** 63n) },
];

void test('records encode to the generated encoder’s bytes and decode back', () => {
  for (const kv of cases) {
    const want = Buffer.from(KeyValue.encode(kv).finish());
    const got = encodeKeyValue(kv);
    assert.ok(got.equals(want), `record ${kv.key.toString('latin1').slice(0, 8)}`);
    assert.deepEqual(KeyValue.decode(got), KeyValue.decode(want));
    assert.deepEqual(decodeKeyValue(got), KeyValue.decode(want));
  }
});

void test('a number outside int64 is refused, as the generated encoder refuses it', () => {
  const kv = { ...cases[0]!, modRevision: 2n ** 63n };
  assert.throws(() => encodeKeyValue(kv), /too large/);
  assert.throws(() => KeyValue.encode(kv), /too large/);
});
