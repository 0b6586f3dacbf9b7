/**
 * A snapshot taken during a concurrent write load is one consistent point in time: the real
 * `etcdctl snapshot save` runs while writers put keys; the file's `key` bucket then ends at one
 * revision R with no record past it, the live keys it holds at R are exactly what a Range at R
 * answers (values, create/mod revisions, versions), every put acknowledged at or below R is in
 * it, and `etcdctl snapshot status` agrees on R. Writes keep being acknowledged while it streams.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ctlFor, etcdctl, eventually, makeTempDir, startKvstore, WriteLoad, type BoundCtl, type Member } from '../support/processes.js';
import { everyKey, snapshotKeys } from './snapshot-keys.js';

void describe('a snapshot under a concurrent write load', () => {
  let member: Member;
  let ctl: BoundCtl;
  let load: WriteLoad | undefined;

  before(async () => {
    member = await startKvstore({ name: 'snapload' });
    ctl = ctlFor(member);
  });
  after(async () => {
    await load?.stop();
  });

  void it('is consistent: one revision, every key at that revision present, nothing torn', async () => {
    load = new WriteLoad({ endpoints: [member.endpoint], writers: 6, prefix: 'load/' });
    await eventually('writes acknowledged before the snapshot', () => Promise.resolve(load!.acked.size >= 300 ? true : undefined));
    const file = join(makeTempDir('snapload'), 'load.db');
    const startedAt = Date.now();
    const saved = await ctl.run(['snapshot', 'save', file], { timeoutMs: 60_000 });
    assert.equal(saved.code, 0, saved.stderr);
    await eventually('writes acknowledged after the snapshot started', () => Promise.resolve(load!.ackedAfter(startedAt) >= 20 ? true : undefined));
    await load.stop();

    const snap = await snapshotKeys(file);
    assert.ok(snap.revision > 1);
    const atRev = await everyKey(ctl, snap.revision);
    assert.equal(atRev.kvs.size, snap.kvs.size);
    assert.deepEqual(snap.kvs, atRev.kvs);

    const missing = [...load.acked].filter(([key, a]) => a.revision <= BigInt(snap.revision) && !snap.kvs.has(key));
    assert.deepEqual(missing, []);
    const newer = [...load.acked].filter(([, a]) => a.revision > BigInt(snap.revision));
    assert.ok(newer.length > 0, 'writes went on past the snapshot revision');
    for (const [key] of newer) assert.equal(snap.kvs.has(key), false, `${key} was written after the snapshot`);

    const status = await etcdctl(member.endpoint, ['snapshot', 'status', file, '-w', 'json']);
    assert.equal(status.code, 0, status.stderr);
    assert.equal((JSON.parse(status.stdout) as { revision: number }).revision, snap.revision);
  });
});
