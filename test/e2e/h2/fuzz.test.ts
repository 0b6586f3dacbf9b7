/**
 * A seeded HTTP/2 frame fuzzer against a member in every client-port mode: thousands of client
 * connections, each a deterministic script of valid and broken frames (fuzz-frames.ts), a few
 * at a time; after every batch the member must run, answer `GET /health` with 200 and a gRPC
 * call. When it does not, the batch's scripts are replayed one by one on a restarted member to
 * find one that kills it, which is shrunk to its smallest form and printed (seed + hex).
 *
 * Knobs: FUZZ_SEED (first seed, default 1), FUZZ_CONNECTIONS (per mode, default 2000),
 * FUZZ_BUDGET_MS (per mode, default 50000: fewer connections run when time is up — the count
 * run is printed), FUZZ_CONCURRENCY (default 4), H2_MODES (modes.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeScript, generateScript, scriptBytes, type ConnectionScript } from '../../support/h2-client/fuzz-frames.js';
import { kills, lastKillLog, memberTrouble, revive, runScript, shrink } from '../../support/h2-client/fuzz-run.js';
import { selectedModes, startInMode, type ModeMember } from '../../support/h2-client/modes.js';
import { REGRESSION_SEEDS } from './fuzz-regressions.js';

const FIRST_SEED = Number(process.env.FUZZ_SEED ?? 1);
const CONNECTIONS = Number(process.env.FUZZ_CONNECTIONS ?? 2000);
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 50_000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 4);
const BATCH = 40;

void describe('fuzz script generator', () => {
  void it('is deterministic per seed and varies across seeds', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 300; seed++) {
      const a = generateScript(seed);
      const b = generateScript(seed);
      assert.ok(scriptBytes(a).equals(scriptBytes(b)), `seed ${seed} gave two scripts`);
      assert.deepEqual(a.cuts, b.cuts);
      seen.add(scriptBytes(a).toString('hex'));
    }
    assert.ok(seen.size > 290, `only ${seen.size} distinct scripts`);
  });
});

/** Runs `seeds` `CONCURRENCY` at a time. */
async function runBatch(m: ModeMember, scripts: readonly ConnectionScript[]): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < scripts.length) await runScript(m, scripts[next++]);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** After a failed batch: the first script that kills the member alone, shrunk; or the report of a batch that only fails together. */
async function explain(m: ModeMember, batch: readonly ConnectionScript[], trouble: string): Promise<string> {
  for (const script of batch) {
    if (await kills(m, script)) {
      const minimal = await shrink(m, script);
      return `${trouble}\nseed ${script.seed} kills the member on its own (add it to fuzz-regressions.ts); minimal script:\n${describeScript(minimal)}\nmember log tail when it died:\n${lastKillLog(m)}`;
    }
  }
  await revive(m);
  return `${trouble}\nno single script of the batch (seeds ${batch[0].seed}..${batch.at(-1)?.seed}) reproduces it alone`;
}

for (const mode of selectedModes()) {
  void describe(`HTTP/2 frame fuzzer [${mode.name}]`, () => {
    let m: ModeMember | undefined;
    before(async () => {
      m = await startInMode(mode, `fuzz-${mode.name}`);
    });
    after(async () => {
      await m?.member.stop('SIGTERM');
    });

    void it(`regression seeds, then up to ${CONNECTIONS} seeded connections: the member keeps serving`, async (t) => {
      assert.ok(m !== undefined, 'member not started');
      const seeds = [...REGRESSION_SEEDS, ...Array.from({ length: CONNECTIONS }, (_, i) => FIRST_SEED + i)];
      const started = Date.now();
      let ran = 0;
      for (let i = 0; i < seeds.length; i += BATCH) {
        if (i >= REGRESSION_SEEDS.length && Date.now() - started > BUDGET_MS) break;
        const batch = seeds.slice(i, i + BATCH).map(generateScript);
        await runBatch(m, batch);
        ran += batch.length;
        const trouble = await memberTrouble(m);
        if (trouble !== undefined) assert.fail(await explain(m, batch, trouble));
      }
      t.diagnostic(`${ran} connections (seeds ${FIRST_SEED}..${FIRST_SEED + ran - REGRESSION_SEEDS.length - 1} and ${REGRESSION_SEEDS.length} regression seeds) in ${Date.now() - started} ms`);
    });
  });
}
