/**
 * The backend quota on a real member: writes beyond --quota-backend-bytes fail with
 * `etcdserver: mvcc: database space exceeded`, the NOSPACE alarm is raised and listed, reads
 * keep working, and once the alarm is disarmed (after freeing space) writes succeed again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { etcdctl, startKvstore } from '../support/processes.js';

void test('quota: database space exceeded, NOSPACE alarm, reads still served', async () => {
  const m = await startKvstore({ args: ['--quota-backend-bytes=262144'] });
  const value = 'v'.repeat(16 * 1024);
  let refused = '';
  for (let i = 0; i < 400 && refused === ''; i++) {
    const r = await etcdctl(m.endpoint, ['put', `big${i % 50}`, value]);
    if (r.code !== 0) refused = r.stderr;
    else if (i % 20 === 19) await new Promise((res) => setTimeout(res, 1000));
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
