/**
 * The key index checkpoint across real restarts of one kvstore member: a clean stop (SIGTERM)
 * leaves `member/snap/key-index.ckpt`; the next start rebuilds the index from it, removes it,
 * and serves the same data (every key, the revision, `endpoint hashkv`). A kill -9 leaves
 * none, and the start after it scans the backend. A checkpoint older than the backend (put
 * back by hand after later writes) is ignored, and the later writes are served.
 */
import assert from 'node:assert/strict';
import { copyFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lastRunRecords } from '../support/member-log.js';
import { ctlFor, makeTempDir, startMember } from '../support/processes.js';

void describe('key index checkpoint', () => {
  void it('a clean stop saves it, the next start uses it once; a kill -9 or a stale one means a scan', async () => {
    const m = await startMember('kvstore');
    const ctl = ctlFor(m);
    const file = join(m.dataDir, 'member', 'snap', 'key-index.ckpt');
    /** Everything a client sees that the index decides. */
    const state = async (): Promise<string> => {
      const all = await ctl.ok(['get', '', '--prefix', '-w', 'json']);
      const { header, kvs } = JSON.parse(all) as { header: { revision: number }; kvs: unknown[] };
      const hash = await ctl.ok(['endpoint', 'hashkv', '-w', 'json']);
      const hashkv = (JSON.parse(hash) as { HashKV: { hash: number } }[])[0]!.HashKV.hash;
      const history = await ctl.ok(['get', 'gen/a', '--rev', '4']);
      return JSON.stringify({ revision: header.revision, kvs, hashkv, history });
    };
    try {
      const lease = /lease ([0-9a-f]+) granted/.exec(await ctl.ok(['lease', 'grant', '600']))![1]!;
      await ctl.ok(['put', 'gen/a', '1']);
      await ctl.ok(['put', 'gen/a', '2']);
      await ctl.ok(['del', 'gen/a']);
      await ctl.ok(['put', 'gen/a', '3', `--lease=${lease}`]);
      for (let i = 0; i < 40; i++) await ctl.ok(['put', `k/${i % 13}`, `v${i}`]);
      await ctl.ok(['compact', '3']);
      await ctl.ok(['put', 'last', 'x']);
      const before = await state();

      assert.equal(await m.stop('SIGTERM'), 0);
      assert.ok(existsSync(file), 'a clean stop saves the checkpoint');
      await m.restart({ waitReady: true });
      assert.equal(lastRunRecords(m, 'recovered key index from checkpoint').length, 1, 'the start used the checkpoint');
      assert.ok(!existsSync(file), 'the start took the checkpoint off the disk');
      assert.equal(await state(), before);
      assert.match(await ctl.ok(['lease', 'timetolive', lease, '--keys']), /attached keys\(\[gen\/a\]\)/);

      await ctl.ok(['put', 'after', 'checkpoint']);
      const afterPut = await state();
      await m.kill9();
      assert.ok(!existsSync(file), 'a kill -9 saves none');
      await m.restart({ waitReady: true });
      assert.equal(lastRunRecords(m, 'rebuilt key index from the backend').length, 1, 'the start scanned');
      assert.equal(await state(), afterPut);

      // A stale checkpoint put back by hand: the backend moved on since.
      assert.equal(await m.stop('SIGTERM'), 0);
      const stale = join(makeTempDir('stale-ckpt-'), 'key-index.ckpt');
      await copyFile(file, stale);
      await m.restart({ waitReady: true });
      await ctl.ok(['put', 'newer', 'than-the-checkpoint']);
      const newest = await state();
      await m.kill9();
      await copyFile(stale, file);
      await m.restart({ waitReady: true });
      const ignored = lastRunRecords(m, 'ignored key index checkpoint; rebuilt the key index from the backend');
      assert.equal(ignored.length, 1, 'the stale checkpoint was ignored');
      assert.equal(ignored[0]!.reason, 'the backend changed after it was written');
      assert.equal(await state(), newest);
    } finally {
      await m.stop('SIGKILL');
    }
  });
});
