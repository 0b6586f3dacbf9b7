/**
 * Seeds that once failed, replayed. A seed names a run of the scenario generator in
 * scenario.ts as it is now: when the generator changes, re-find the failing seeds (run the
 * seed range with the options below) and update this list.
 *
 * An entry with `expect` documents a behaviour outside the supported fault model: its seed
 * must still show the violation named (if it stops doing so, the entry is stale).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KNOWN_BUGS } from './known-bugs.js';
import { runSeed, type ScenarioOptions } from './scenario.js';

interface Regression {
  readonly seed: number;
  readonly note: string;
  readonly options?: ScenarioOptions;
  /** Omitted: the seed must pass. Otherwise: text its failure report must contain. */
  readonly expect?: { readonly violation: string };
}

const REGRESSIONS: readonly Regression[] = [
  ...KNOWN_BUGS.flatMap((b) => b.seeds.map((seed) => ({ seed, note: `open bug ${b.id}: ${b.summary}` }))),
  // Fixed: a crash after a received snapshot replaced the backend but before the log's
  // snapshot marker was durable left a member that could not start (backend ahead of the
  // log). The member now records the marker before the backend takes the image.
  { seed: 150, note: 'snapshot install interrupted by a crash (fixed)' },
  { seed: 1504, note: 'snapshot install interrupted by a crash (fixed)' },
];

// Outside the fault model: the peer transport never delivers a frame twice, and members do
// not deduplicate proposals; a network that duplicates forwarded proposals (scenario option
// duplicateProposals) can make a put apply twice. No current seed shows it; the option stays
// for exploring that model.

for (const r of REGRESSIONS) {
  void test(`seed ${r.seed}: ${r.note}`, async () => {
    const res = await runSeed(r.seed, r.options);
    if (r.expect === undefined) {
      if (res.failure) assert.fail(res.failure.report());
      return;
    }
    assert.ok(res.failure, `seed ${r.seed} no longer fails: the regression entry is stale`);
    const report = res.failure.report();
    assert.ok(report.includes(r.expect.violation), report);
  });
}
