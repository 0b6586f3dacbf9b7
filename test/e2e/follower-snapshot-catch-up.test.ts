/**
 * A follower that was stopped while the leader wrote past its compacted log catches up by a
 * state image, on real kvstore processes (`--snapshot-count=200`, so the leader keeps only
 * 200 entries behind each snapshot):
 * - the leader logs `sending database snapshot`, the follower `received database snapshot`
 *   and `applied database snapshot` (the catch-up went through the image, not the log);
 * - afterwards the follower serves, from its own state (serializable reads, v2 reads without
 *   quorum), every key written while it was down, the lease attached to one of them, the v2
 *   key and the user added meanwhile; all three members report the same KV hash;
 * - no state image file is left in the follower's snap dir.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { lastRunRecords } from '../support/member-log.js';
import { ctlFor, eventually, GENEROUS_MS, openKv, put, readPrefix, startCluster, waitForLeader } from '../support/processes.js';

const KEYS = 1500;
const PREFIX = 'catch-up/';

void test('a follower behind the compacted log catches up by a state image, v2 store, leases and auth included', async () => {
  const members = await startCluster('kvstore', 3, { args: ['--snapshot-count=200', '--enable-v2'] });
  const { leader, followers } = await waitForLeader(members);
  const behind = followers[0]!;
  await behind.stop('SIGTERM');

  const ctl = ctlFor(leader);
  // Written first, so they are only in the compacted part of the log: the image must carry them.
  const grant = await ctl.ok(['lease', 'grant', '3600']);
  const leaseId = /lease ([0-9a-f]+) granted/.exec(grant)?.[1];
  assert.ok(leaseId !== undefined, grant);
  await ctl.ok(['put', '--lease', leaseId, `${PREFIX}leased`, 'with a lease']);
  await ctl.ok(['user', 'add', 'catch-up-user', '--new-user-password=secret']);
  const v2 = await fetch(`${leader.clientUrl}/v2/keys/catch-up`, { method: 'PUT', body: 'value=v2-value', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(v2.status, 201, await v2.text());

  const kv = openKv(leader.endpoint);
  try {
    for (let i = 0; i < KEYS; i++) await put(kv, `${PREFIX}${String(i).padStart(5, '0')}`, `value-${i}`, 10_000);
  } finally {
    kv.close();
  }

  await behind.restart();
  const local = openKv(behind.endpoint);
  try {
    await eventually(`${behind.name} holds every key written while it was down`, async () => {
      const { kvs } = await readPrefix(local, PREFIX, { serializable: true });
      return kvs.size === KEYS + 1 ? kvs : undefined;
    }, { timeoutMs: 4 * GENEROUS_MS });
  } finally {
    local.close();
  }
  assert.ok(lastRunRecords(leader, 'sending database snapshot').length > 0, 'the leader sent a state image');
  assert.ok(lastRunRecords(behind, 'received database snapshot').length > 0, 'the follower received it');
  // The reads above may see the image a moment before the install logs its end.
  await eventually('the follower logs the install', async () => (lastRunRecords(behind, 'applied database snapshot').length > 0 ? true : undefined));

  const v2Local = await fetch(`${behind.clientUrl}/v2/keys/catch-up?quorum=false`);
  assert.equal(v2Local.status, 200);
  assert.match(await v2Local.text(), /"value":"v2-value"/);
  assert.match(await ctlFor(behind).ok(['lease', 'list']), new RegExp(leaseId));
  assert.match(await ctlFor(behind).ok(['get', `${PREFIX}leased`, '-w', 'json', '--consistency=s']), new RegExp(`"lease":${BigInt(`0x${leaseId}`)}`));
  assert.match(await ctlFor(behind).ok(['user', 'list']), /catch-up-user/);

  await eventually('all members report the same KV hash', async () => {
    const out = await ctlFor(members.map((m) => m.endpoint)).ok(['endpoint', 'hashkv', '-w', 'json']);
    const hashes = new Set([...out.matchAll(/"hash":(\d+)/g)].map((m) => m[1]));
    return hashes.size === 1 ? true : undefined;
  });
  const snapDir = join(behind.dataDir, 'member', 'snap');
  assert.deepEqual(readdirSync(snapDir).filter((n) => n.includes('.snap.')), [], 'no image file left');
});
