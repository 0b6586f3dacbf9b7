import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { InternalRequest } from '../../../proto/gen/kvstore/internal.js';
import { hasTopLevelField } from '../../../server/clusterversion/top-level-field.js';

const encode = (r: Partial<InternalRequest>): Uint8Array => InternalRequest.encode({ header: undefined, request: undefined, ...r }).finish();

void test('finds the oneof member an InternalRequest carries, whatever comes before it', () => {
  const decision = encode({ header: { id: 2n ** 63n + 5n, memberId: 42n, authRevision: 0n, username: '' }, request: { $case: 'clusterVersionSet', value: { ver: '3.5.0' } } });
  assert.equal(hasTopLevelField(decision, 13), true);
  assert.equal(hasTopLevelField(decision, 1), true);
  const put = encode({ header: { id: 7n, memberId: 9n, authRevision: 0n, username: '' }, request: { $case: 'put', value: { key: Buffer.from('k'), value: Buffer.alloc(300, 13 * 8 + 2), lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false } } });
  assert.equal(hasTopLevelField(put, 13), false, 'a value full of the tag byte is skipped, not read as a tag');
  assert.equal(hasTopLevelField(put, 2), true);
  assert.equal(hasTopLevelField(encode({ request: { $case: 'v2Sync', value: 123456789n } }), 13), false);
});

void test('agrees with decoding for any header and any request bytes', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.uint8Array({ maxLength: 200 }), fc.boolean(), (id, raw, isDecision) => {
      const bytes = isDecision
        ? encode({ header: { id, memberId: id, authRevision: 0n, username: '' }, request: { $case: 'clusterVersionSet', value: { ver: '3.4.0' } } })
        : encode({ header: { id, memberId: id, authRevision: 0n, username: '' }, request: { $case: 'v2Request', value: Buffer.from(raw) } });
      assert.equal(hasTopLevelField(bytes, 13), isDecision);
    }),
  );
});

void test('malformed bytes answer false instead of throwing', () => {
  assert.equal(hasTopLevelField(Uint8Array.from([0xff, 0xff]), 13), false);
  assert.equal(hasTopLevelField(Uint8Array.from([0x0f]), 13), false);
});
