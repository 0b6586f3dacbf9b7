/**
 * The hand-written Snapshot reply serializer gives the generated encoder's bytes (property),
 * for remaining_bytes across the varint lengths and blobs from empty to 32 KiB.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SnapshotResponse } from '../../../proto/gen/etcd/rpc.js';
import { encodeSnapshotResponse } from '../../../server/api/grpc/snapshot-reply.js';

const generated = (m: SnapshotResponse): Buffer => Buffer.from(SnapshotResponse.encode(m).finish());

void test('same bytes as the generated encoder', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.uint8Array({ maxLength: 300 }), (remainingBytes, blob) => {
      const m: SnapshotResponse = { header: undefined, remainingBytes, blob: Buffer.from(blob) };
      assert.deepEqual(encodeSnapshotResponse(m), generated(m));
    }),
  );
  for (const remainingBytes of [0n, 1n, 127n, 128n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n, 2n ** 64n - 1n]) {
    for (const blob of [Buffer.alloc(0), Buffer.alloc(32, 7), Buffer.alloc(32 * 1024, 9)]) {
      const m: SnapshotResponse = { header: undefined, remainingBytes, blob };
      assert.deepEqual(encodeSnapshotResponse(m), generated(m));
    }
  }
  const withHeader: SnapshotResponse = { header: { clusterId: 1n, memberId: 2n, revision: 3n, raftTerm: 4n }, remainingBytes: 5n, blob: Buffer.from('x') };
  assert.deepEqual(encodeSnapshotResponse(withHeader), generated(withHeader));
});
