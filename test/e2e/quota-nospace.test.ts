/**
 * The backend quota on a real member: writes beyond --quota-backend-bytes fail with
 * `etcdserver: mvcc: database space exceeded`, the NOSPACE alarm is raised and listed, reads
 * keep working, and once the alarm is disarmed (after freeing space) writes succeed again.
 *
 * The documented recovery (issue 30), on kvstore and on the reference etcd 3.4 (serverKinds(),
 * kvstore as the reference's version) with a 256 KiB quota: four keys overwritten with 4 KiB
 * values until NOSPACE — the reported DB size (`endpoint status`) grows with what was written
 * meanwhile —, then `compact <current revision>`, `defrag`, `alarm disarm`: a 64-byte put
 * succeeds at once, the alarm list is empty and the DB size is below the quota (and below its
 * size at NOSPACE).
 */
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { endpointStatus, etcdctl, etcdVersion, serverKinds, startKvstore, startMember, type Member } from '../support/processes.js';

void test('quota: database space exceeded, NOSPACE alarm, reads still served', async () => {
  const m = await startKvstore({ args: ['--quota-backend-bytes=262144'] });
  const value = 'v'.repeat(16 * 1024);
  let refused = '';
  for (let i = 0; i < 400 && refused === ''; i++) {
    const r = await etcdctl(m.endpoint, ['put', `big${i % 50}`, value]);
    if (r.code !== 0) refused = r.stderr;
  }
  assert.match(refused, /Error: etcdserver: mvcc: database space exceeded/);
  const alarms = await etcdctl(m.endpoint, ['alarm', 'list']);
  assert.match(alarms.stdout, /alarm:NOSPACE/);
  const get = await etcdctl(m.endpoint, ['get', 'big0', '--print-value-only']);
  assert.equal(get.code, 0, 'reads are still served');
  const again = await etcdctl(m.endpoint, ['put', 'small', 'x']);
  assert.match(again.stderr, /database space exceeded/, 'while the alarm is raised every write is refused');
  const del = await etcdctl(m.endpoint, ['del', 'big', '--prefix']);
  assert.equal(del.code, 0, 'deletes are allowed under the alarm');
});

const QUOTA = 256 * 1024;
const VALUE_BYTES = 4 * 1024;
/** Puts between two size samples; a sample may miss the last few puts (etcd commits its batch every 100 ms). */
const SAMPLE_EVERY = 8;
const SAMPLE_SLACK_PUTS = 4;

async function statusOf(m: Member): Promise<{ readonly revision: bigint; readonly dbSize: number; readonly dbSizeInUse: number }> {
  const { statuses, result } = await endpointStatus(m.endpoint);
  const s = statuses[0];
  assert.ok(s, `endpoint status answered nothing: ${result.stderr}`);
  return s;
}

async function ok(m: Member, args: readonly string[]): Promise<string> {
  const r = await etcdctl(m.endpoint, args);
  assert.equal(r.code, 0, `etcdctl ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

for (const kind of serverKinds()) {
  void describe(`quota on ${kind}: the documented NOSPACE recovery`, () => {
    void it('fill until NOSPACE, then compact, defrag, disarm: a small put succeeds at once', async (t) => {
      const env: Record<string, string> = kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {};
      const m = await startMember(kind, { args: [`--quota-backend-bytes=${QUOTA}`], env });
      const value = 'q'.repeat(VALUE_BYTES);
      const samples: string[] = [];
      let refused = '';
      let puts = 0;
      for (let i = 0; i < 400 && refused === ''; i++) {
        const r = await etcdctl(m.endpoint, ['put', `quota/key${i % 4}`, value]);
        if (r.code !== 0) {
          refused = r.stderr;
          break;
        }
        puts++;
        if (puts % SAMPLE_EVERY !== 0) continue;
        const { dbSize } = await statusOf(m);
        samples.push(`${puts}:${dbSize}`);
        const written = (puts - SAMPLE_SLACK_PUTS) * VALUE_BYTES;
        assert.ok(dbSize >= written, `DB size ${dbSize} after ${puts} puts of ${VALUE_BYTES} B (samples ${samples.join(' ')})`);
      }
      t.diagnostic(`${kind}: NOSPACE after ${puts} puts; sizes (puts:dbSize) ${samples.join(' ')}`);
      assert.match(refused, /Error: etcdserver: mvcc: database space exceeded/);
      assert.match(await ok(m, ['alarm', 'list']), /alarm:NOSPACE/);
      const full = await statusOf(m);

      await ok(m, ['compact', String(full.revision)]);
      await ok(m, ['defrag']);
      await ok(m, ['alarm', 'disarm']);
      const after = await statusOf(m);
      t.diagnostic(`${kind}: at NOSPACE dbSize ${full.dbSize} (in use ${full.dbSizeInUse}); after compact + defrag dbSize ${after.dbSize} (in use ${after.dbSizeInUse})`);
      const put = await etcdctl(m.endpoint, ['put', 'quota/small', 's'.repeat(64)]);
      assert.equal(put.code, 0, `the put after the recovery failed: ${put.stderr}`);
      assert.equal((await ok(m, ['alarm', 'list'])).trim(), '');
      assert.ok(after.dbSize < QUOTA, `DB size after defrag ${after.dbSize} ≥ quota ${QUOTA}`);
      assert.ok(after.dbSize < full.dbSize, `DB size after defrag ${after.dbSize} not below ${full.dbSize} at NOSPACE`);
    });
  });
}
