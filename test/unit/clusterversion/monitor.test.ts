// The version monitor's triggers: a check asked for while one runs is run right after it (a
// member that publishes during the leader's first check is not left for the next period), and
// the leader proposes the decided version at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { ClusterVersionState } from '../../../server/clusterversion/cluster-version-state.js';
import { startVersionMonitor } from '../../../server/clusterversion/monitor.js';
import { ok } from '../../../server/errors/domain-error.js';

void test('a check asked for during a running one runs after it; a lone leader proposes its own version', async () => {
  const state = new ClusterVersionState();
  const proposals: string[] = [];
  let release!: () => void;
  const firstProposalHeld = new Promise<void>((r) => (release = r));
  let rounds = 0;
  const monitor = startVersionMonitor({
    memberId: 1n,
    serverVersion: '3.4.0',
    state,
    peers: () => {
      rounds += 1;
      return [];
    },
    isLeader: () => true,
    propose: async (ver) => {
      proposals.push(ver);
      if (proposals.length === 1) await firstProposalHeld;
      state.set(ver);
      return ok(undefined);
    },
    intervalMs: 3_600_000,
    logger: pino({ level: 'silent' }),
  });
  try {
    monitor.check();
    await new Promise((r) => setImmediate(r));
    assert.equal(rounds, 1);
    monitor.check(); // while the first round waits for its proposal
    monitor.check(); // asked twice: still one more round
    await new Promise((r) => setImmediate(r));
    assert.equal(rounds, 1, 'no second round while the first runs');
    release();
    for (let i = 0; i < 20 && rounds < 2; i++) await new Promise((r) => setImmediate(r));
    assert.equal(rounds, 2, 'the check asked for meanwhile ran after the first');
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    assert.equal(rounds, 2);
    assert.deepEqual(proposals, ['3.4.0'], 'the decided version once; nothing left to raise after it');
    assert.equal(state.reported, '3.4.0');
  } finally {
    monitor.stop();
  }
});
