/**
 * Fixed scenarios kept from failures of the Raft safety property (safety.property.test.ts), each
 * with the seed and what went wrong, plus a focused test of the cause.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ConfChangeType } from '../../../server/raft/index.js';
import { InvariantChecker } from './harness/invariants.js';
import { Network } from './harness/network.js';
import { runScenario, type Action } from './harness/safety-scenario.js';

const voterIds = (net: Network, id: bigint): bigint[] => [...net.get(id).node.status().confState.voters].sort((a, b) => (a < b ? -1 : 1));

/**
 * Seed 300882587 (3 voters, no pre-vote, no check-quorum), shrunk further by hand: spares 4 and 5
 * join as learners and are promoted; then nodes 1 and 2 crash and restart. Each restarted with the
 * bootstrap voters [1 2 3] and its applied index, so the conf changes it had applied (in the log,
 * not in any snapshot) were never fed to the core again: 2 won term 4 with votes {1, 2} while 3
 * won it with {3, 4, 5}, and index 7 was applied as "p0" on one node and as a no-op on another.
 */
const seed300882587: readonly Action[] = [
    { kind: 'conf', node: 1, target: 1, op: 'add-learner' },
    { kind: 'flush' },
    { kind: 'ready', node: 2 },
    { kind: 'conf', node: 2, target: 0, op: 'add-learner' },
    { kind: 'deliver', pos: 0, dup: true },
    { kind: 'flush' },
    { kind: 'flush' },
    { kind: 'flush' },
    { kind: 'flush' },
    { kind: 'conf', node: 1, target: 1, op: 'promote' },
    { kind: 'flush' },
    { kind: 'flush' },
    { kind: 'conf', node: 2, target: 0, op: 'promote' },
    { kind: 'flush' },
    { kind: 'flush' },
    { kind: 'restart', node: 1 },
    { kind: 'tick', node: 1 },
    { kind: 'tick', node: 1 },
    { kind: 'tick', node: 1 },
    { kind: 'tickAll' },
    { kind: 'flush' },
    { kind: 'flush' },
    { kind: 'flush' },
    { kind: 'flush' },
    { kind: 'tickAll' },
    { kind: 'tickAll' },
    { kind: 'flush' },
    { kind: 'partition', mask: 1 },
    { kind: 'tickAll' },
    { kind: 'flush' },
    { kind: 'flush' },
    { kind: 'restart', node: 2 },
    { kind: 'tick', node: 1 },
    { kind: 'ready', node: 1 },
    { kind: 'partition', mask: 71 },
    { kind: 'drop', pos: 0 },
    { kind: 'deliver', pos: 0, dup: true },
    { kind: 'tickAll' },
    { kind: 'partition', mask: 27 },
    { kind: 'propose', node: 1 },
    { kind: 'flush' },
    { kind: 'tickAll' },
    { kind: 'tickAll' },
    { kind: 'heal' },
    { kind: 'tickAll' },
    { kind: 'flush' },
    { kind: 'tickAll' },
];

void test('regression seed 300882587: restarts after membership changes keep the membership', () => {
  runScenario(3, false, false, 1047453617, seed300882587);
});

function grown(): { net: Network; checker: InvariantChecker } {
  const net = Network.cluster(3);
  net.add(4n, { voters: [1n, 2n, 3n] });
  const checker = new InvariantChecker(net);
  const settle = (): void => {
    net.stabilize();
    checker.check();
  };
  net.get(1n).node.campaign();
  settle();
  net.get(1n).node.proposeConfChange({ type: ConfChangeType.AddLearnerNode, nodeId: 4n, context: Buffer.alloc(0) });
  settle();
  net.get(1n).node.proposeConfChange({ type: ConfChangeType.AddNode, nodeId: 4n, context: Buffer.alloc(0) });
  settle();
  net.get(1n).node.propose(Buffer.from('a'));
  settle();
  return { net, checker };
}

void test('a restarted node has the membership it applied, whether the changes are in its log or its snapshot', () => {
  for (const compactAt of [undefined, 2, 3, 4]) {
    const { net, checker } = grown();
    for (const id of [1n, 2n, 3n, 4n]) assert.deepEqual(voterIds(net, id), [1n, 2n, 3n, 4n]);
    const n2 = net.get(2n);
    if (compactAt !== undefined) {
      // A snapshot taken between (or after) the conf changes; the rest stay only in the log.
      assert.ok(n2.storage.createSnapshot(compactAt, n2.confStateAt(compactAt), n2.snapshotData()).ok);
      assert.ok(n2.storage.compact(compactAt).ok);
    }
    net.restart(2n);
    net.stabilize();
    checker.check();
    assert.deepEqual(voterIds(net, 2n), [1n, 2n, 3n, 4n], `restart of 2 after compacting to ${compactAt ?? 'nothing'}`);
    assert.deepEqual(n2.applied.map((a) => a.data), ['', `${ConfChangeType.AddLearnerNode} 4`, `${ConfChangeType.AddNode} 4`, 'a'], 'nothing applied twice');
    // With 1 gone, 2 needs the votes of 3 or 4 and both of them: a quorum of the four voters.
    net.isolate(1n);
    net.get(2n).node.campaign();
    net.stabilize();
    checker.check();
    assert.equal(net.get(2n).node.status().raftState, 'Leader');
    net.get(2n).node.propose(Buffer.from('b'));
    net.stabilize();
    checker.check();
    for (const id of [2n, 3n, 4n]) assert.equal(net.get(id).applied.at(-1)?.data, 'b');
  }
});
