/**
 * `npm start` (scripts/start-local.mjs → `kvstore-operator local` on a copy of
 * deploy/local/cluster.yaml in `.kvstore-local/` of the current directory): the shipped example
 * comes up Running with 3 members, and the status reports the real cluster version from the
 * first Running status on — every status the operator wrote with phase Running (its
 * `status written` log records, all of them, not a sample of the file) names cluster version
 * 3.4.0, never the provisional 3.0.0 a member could report before the version was decided.
 * Ctrl-C (SIGINT to the process group, as a terminal sends it) stops the members and the operator (exit 0).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeTempDir } from '../support/processes.js';
import { BUILD_ROOT } from '../support/paths.js';
import { LocalOperator, statusWrites, waitStatus } from '../operator/local/local-operator.js';

const START_SCRIPT = resolve(BUILD_ROOT, '..', 'scripts', 'start-local.mjs');

void test('npm start: the example cluster is Running at cluster version 3.4.0 from its first Running status', async () => {
  assert.ok(existsSync(START_SCRIPT), START_SCRIPT);
  const cwd = makeTempDir('npm-start');
  const file = join(cwd, '.kvstore-local', 'cluster.yaml');
  const op = new LocalOperator(file, join(cwd, '.kvstore-local', 'demo.kvstore'), [], { script: START_SCRIPT, cwd });
  const running = await waitStatus(file, 'Running with 3 ready members', (s) => s.phase === 'Running' && s.readyMembers === '3/3', op);
  assert.equal(running.clusterVersion, '3.4.0');
  assert.ok(running.members.every((m) => m.version === '3.4.0' && m.healthy), JSON.stringify(running.members));

  const writes = statusWrites(op);
  const firstRunning = writes.findIndex((w) => w.phase === 'Running');
  assert.ok(firstRunning >= 0, `a "status written" record with phase Running: ${JSON.stringify(writes)}`);
  assert.deepEqual(
    writes.slice(firstRunning).filter((w) => w.phase === 'Running').map((w) => w.clusterVersion),
    writes.slice(firstRunning).filter((w) => w.phase === 'Running').map(() => '3.4.0'),
    `cluster version of every Running status (all writes: ${JSON.stringify(writes.map((w) => [w.phase, w.clusterVersion, w.readyMembers]))})`,
  );
  assert.ok(!writes.some((w) => w.clusterVersion === '3.0.0'), 'no status with the provisional cluster version');

  assert.equal(await op.stop('SIGINT'), 0);
});
