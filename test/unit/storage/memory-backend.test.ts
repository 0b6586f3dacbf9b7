/** Runs the Backend conformance suite against MemoryBackend, plus its crash model. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Bucket } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { runBackendConformance } from './backend-conformance.js';

runBackendConformance('memory', () => {
  const backend = createMemoryBackend();
  return Promise.resolve({ backend, dispose: () => backend.close() });
});

void describe('MemoryBackend crash model', () => {
  void it('crash() keeps what the last synced write made durable, copy() keeps everything', async () => {
    const be = createMemoryBackend();
    await be.write([{ type: 'put', bucket: Bucket.Key, key: Buffer.from('a'), value: Buffer.from('1') }]);
    await be.write([{ type: 'put', bucket: Bucket.Key, key: Buffer.from('b'), value: Buffer.from('1') }], { sync: true });
    await be.write([{ type: 'put', bucket: Bucket.Key, key: Buffer.from('c'), value: Buffer.from('1') }]);
    const crashed = be.crash();
    assert.deepEqual(await crashed.get(Bucket.Key, Buffer.from('a')), Buffer.from('1'));
    assert.deepEqual(await crashed.get(Bucket.Key, Buffer.from('b')), Buffer.from('1'));
    assert.equal(await crashed.get(Bucket.Key, Buffer.from('c')), undefined);
    assert.deepEqual(await be.copy().get(Bucket.Key, Buffer.from('c')), Buffer.from('1'));
    assert.equal(await crashed.size(), 4);
  });
});
