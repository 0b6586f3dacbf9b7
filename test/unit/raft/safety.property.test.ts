/**
 * Property: under any schedule of ticks, message loss, duplication and reordering, partitions,
 * crash-restarts, log compactions and membership changes (learners added, promoted, removed),
 * the Figure 3 invariants hold after every step (at most one
 * leader per term, leader append-only, log matching, leader completeness, committed entries never
 * change, applied logs are prefixes of one another); and once the network heals, the cluster
 * elects a leader and commits a new entry everywhere. Failures found here are kept as fixed
 * scenarios in regressions.test.ts.
 */
import { test } from 'node:test';

import fc from 'fast-check';

import { action, runScenario } from './harness/safety-scenario.js';

void test('Raft safety holds under loss, duplication, reordering, partitions, restarts, compaction and membership changes', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(3, 5),
      fc.boolean(),
      fc.boolean(),
      fc.integer({ min: 0, max: 1 << 30 }),
      fc.array(action, { minLength: 200, maxLength: 800, size: 'max' }),
      (size, preVote, checkQuorum, seed, actions) => runScenario(size, preVote, checkQuorum, seed, actions),
    ),
    {
      numRuns: Number(process.env['RAFT_PROPERTY_RUNS'] ?? 500),
      // Replay a reported failure: RAFT_PROPERTY_SEED=<seed> RAFT_PROPERTY_PATH=<path>.
      ...(process.env['RAFT_PROPERTY_SEED'] !== undefined ? { seed: Number(process.env['RAFT_PROPERTY_SEED']) } : {}),
      ...(process.env['RAFT_PROPERTY_PATH'] !== undefined ? { path: process.env['RAFT_PROPERTY_PATH'], endOnFailure: true } : {}),
    },
  );
});
