/**
 * A follower killed (kill -9) while it loads a state image into its backend finishes the
 * install when it starts again, on real kvstore processes (`--snapshot-count=200`):
 * - the kill lands after the follower logged `installing database snapshot` (its log holds the
 *   snapshot) and before `applied database snapshot` (the image is large: ≈ 150 MB, seconds of
 *   loading), and the kept `<index>.snap.db` is still in its snap dir;
 * - the next start logs `finished installing a database snapshot interrupted by a stop`,
 *   removes the image file, and the follower then serves every key from its own state, with
 *   the same KV hash as the other members.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { lastRunRecords } from '../support/member-log.js';
import { ctlFor, eventually, GENEROUS_MS, openKv, put, startCluster, waitForLeader } from '../support/processes.js';

const KEYS = 1500;
const VALUE = 'x'.repeat(100 * 1024);
const PREFIX = 'interrupted/';

const images = (dir: string): string[] => readdirSync(join(dir, 'member', 'snap')).filter((n) => /\.snap\.db$/.test(n));

void test('a follower killed while it loads a state image finishes the install at its next start', async () => {
  const members = await startCluster('kvstore', 3, { args: ['--snapshot-count=200'] });
  const { leader, followers } = await waitForLeader(members);
  const behind = followers[0]!;
  await behind.stop('SIGTERM');

  const kv = openKv(leader.endpoint);
  try {
    for (let i = 0; i < KEYS; i++) await put(kv, `${PREFIX}${String(i).padStart(5, '0')}`, `${i}:${VALUE}`, 10_000);
  } finally {
    kv.close();
  }

  await behind.restart({ waitReady: false });
  await eventually('the follower installs the state image', async () => (lastRunRecords(behind, 'installing database snapshot').length > 0 ? true : undefined), {
    timeoutMs: 4 * GENEROUS_MS,
    intervalMs: 5,
  });
  await behind.kill9();
  assert.equal(lastRunRecords(behind, 'applied database snapshot').length, 0, 'the kill landed before the install ended');
  assert.equal(images(behind.dataDir).length, 1, 'the received image is kept for the next start');

  await behind.restart();
  assert.equal(lastRunRecords(behind, 'finished installing a database snapshot interrupted by a stop').length, 1);
  assert.deepEqual(images(behind.dataDir), [], 'the image is removed once installed');
  const ctl = ctlFor(behind);
  const counted = JSON.parse(await ctl.ok(['get', PREFIX, '--prefix', '--keys-only', '--consistency=s', '-w', 'json'])) as { count: number };
  assert.equal(counted.count, KEYS, 'every key, from the follower’s own state');
  assert.equal(await ctl.ok(['get', `${PREFIX}00042`, '--consistency=s', '--print-value-only']), `42:${VALUE}\n`);
  await eventually('every member reports the same KV hash', async () => {
    const hashes = await Promise.all(members.map(async (m) => (JSON.parse(await ctlFor(m).ok(['endpoint', 'hashkv', '-w', 'json'])) as { HashKV: { hash: number } }[])[0]!.HashKV.hash));
    return new Set(hashes).size === 1 ? hashes : undefined;
  });
});
