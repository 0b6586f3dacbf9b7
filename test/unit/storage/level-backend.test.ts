/** Runs the Backend conformance suite against LevelBackend, plus persistence across reopen. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bucket } from '../../../server/storage/backend.js';
import { backendPath, openLevelBackend } from '../../../server/storage/level-backend.js';
import { runBackendConformance } from './backend-conformance.js';

runBackendConformance('level', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kvstore-level-'));
  const backend = await openLevelBackend(join(dir, 'db'));
  return {
    backend,
    dispose: async () => {
      await backend.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

void describe('LevelBackend', () => {
  void it('keeps its data across close and reopen', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kvstore-level-'));
    try {
      const path = backendPath(dir);
      assert.equal(path, join(dir, 'member', 'snap', 'db'));
      const first = await openLevelBackend(path);
      await first.write([
        { type: 'put', bucket: Bucket.Key, key: Buffer.from('a'), value: Buffer.from('1') },
        { type: 'put', bucket: Bucket.Meta, key: Buffer.from('a'), value: Buffer.from('2') },
      ]);
      await first.close();
      const second = await openLevelBackend(path);
      assert.deepEqual(await second.get(Bucket.Key, Buffer.from('a')), Buffer.from('1'));
      assert.deepEqual(await second.get(Bucket.Meta, Buffer.from('a')), Buffer.from('2'));
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  void it('sizes its directory while a file in it goes away (a table file removed by LevelDB compaction)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kvstore-level-'));
    try {
      const backend = await openLevelBackend(join(dir, 'db'));
      await backend.write([{ type: 'put', bucket: Bucket.Key, key: Buffer.from('a'), value: Buffer.alloc(1000) }]);
      const before = await backend.size();
      // Listed but gone by the time it is looked at: a link to nothing fails its stat with ENOENT.
      await symlink(join(dir, 'gone.ldb'), join(dir, 'db', '999999.ldb'));
      assert.equal(await backend.size(), before);
      await backend.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
