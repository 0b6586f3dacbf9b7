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
import { runSeed, type ScenarioOptions } from './scenario.js';

interface Regression {
  readonly seed: number;
  readonly note: string;
  readonly options?: ScenarioOptions;
  /** Omitted: the seed must pass. Otherwise: text its failure report must contain. */
  readonly expect?: { readonly violation: string };
}

const REGRESSIONS: readonly Regression[] = [
  {
    seed: 17,
    note:
      'a forwarded proposal (MsgProp) delivered twice is appended and applied twice (put c3.22 at revisions 31 and 32): ' +
      'the member does not deduplicate requests, so the peer transport must never deliver a frame twice',
    options: { duplicateProposals: true },
    expect: { violation: 'value c3.22 read with modRevision 32' },
  },
];

for (const r of REGRESSIONS) {
  void test(`seed ${r.seed}: ${r.note}`, async () => {
    const res = await runSeed(r.seed, r.options);
    if (r.expect === undefined) {
      assert.equal(res.failure, undefined, res.failure?.report());
      return;
    }
    assert.ok(res.failure, `seed ${r.seed} no longer fails: the regression entry is stale`);
    const report = res.failure.report();
    assert.ok(report.includes(r.expect.violation), report);
  });
}
