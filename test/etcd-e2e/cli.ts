/**
 * `node test/etcd-e2e/run.mjs [--server kvstore|etcd] [--run <regex>] [--timeout <s>] [--jobs <n>] [--record]`
 *
 * `--jobs 2` runs two tests at once, each in a network namespace and a scratch tree of its own
 * (isolation.ts); where namespaces cannot be made it says why and runs one at a time.
 * Builds the suite (cached), runs each selected test in its own process against the chosen server,
 * writes `.e2e/results-<server>.json` (`results-<server>-partial.json` for a `--run` selection) after every
 * test, so a cut-short run keeps what finished,
 * prints the table and the gate's findings. A kvstore failure that would gate is retried once; a pass
 * on the retry is reported as flaky, not gated. Exit status: 1 when kvstore fails a test that etcd passes
 * and that neither accepted.json nor known-open.json names; 2 on a usage error; 0 otherwise.
 * `--record` (etcd only) rewrites reference.json from the run (merged into it for a partial run).
 */
import { writeFileSync } from 'node:fs';
import { cpus, hostname } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SERVERS, type Server, ensureSuiteBinary, ensureWorkDir, prepareTree } from './build.js';
import { gate, judge, referenceChanges } from './gate.js';
import { countResults, readLists, writeReference } from './lists.js';
import { isolationProblem } from './isolation.js';
import { ETCD_BIN, missingPrerequisite } from './paths.js';
import { type Outcome, listTests, runWithRetry } from './run-one.js';
import { formatTable } from './table.js';

const USAGE = 'usage: node test/etcd-e2e/run.mjs [--server kvstore|etcd] [--run <regex>] [--timeout <seconds>] [--jobs 1|2] [--record]';

/** Runs `work` over `items`, `jobs` at a time; worker `w` (0-based) is passed along. */
async function pool<T>(items: readonly T[], jobs: number, work: (item: T, w: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (w: number): Promise<void> => {
    while (next < items.length) await work(items[next++]!, w);
  };
  await Promise.all(Array.from({ length: jobs }, (_, w) => worker(w)));
}

export async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      server: { type: 'string', default: 'kvstore' },
      run: { type: 'string', default: '.*' },
      timeout: { type: 'string', default: '120' },
      jobs: { type: 'string', default: '1' },
      record: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const server = values.server as Server;
  const timeoutSeconds = Number(values.timeout);
  const jobs = Number(values.jobs);
  if (values.help || !SERVERS.includes(server) || !(timeoutSeconds > 0) || !(jobs === 1 || jobs === 2) || (values.record && server !== 'etcd')) {
    console.error(USAGE);
    if (values.record && server !== 'etcd') console.error('--record records etcd: use it with --server etcd');
    return values.help ? 0 : 2;
  }
  const missing = missingPrerequisite();
  if (missing !== undefined) {
    console.error(`cannot run the etcd e2e suite: ${missing}`);
    return 2;
  }
  // Two at once only in network namespaces of their own: the suite binds fixed ports.
  let workers = jobs;
  const problem = workers > 1 ? isolationProblem() : undefined;
  if (problem !== undefined) {
    console.error(`one test at a time: two need a network namespace each, and ${problem}`);
    workers = 1;
  }
  const binary = await ensureSuiteBinary((l) => console.error(l));
  const trees = Array.from({ length: workers }, (_, w) => prepareTree(server, workers === 1 ? server : `${server}-${w}`));
  const tree = trees[0]!;
  const suiteTests = await listTests(binary, tree);
  const selector = new RegExp(values.run);
  const selected = suiteTests.filter((t) => selector.test(t));
  const lists = readLists();
  const partial = selected.length < suiteTests.length;
  const resultsPath = join(ensureWorkDir(), `results-${server}${partial ? '-partial' : ''}.json`);
  const started = new Date().toISOString();
  const done = new Map<string, Outcome>();
  const save = (): void => {
    const outcomes = selected.filter((t) => done.has(t)).map((t) => done.get(t)!);
    writeFileSync(resultsPath, `${JSON.stringify({ server, started, timeoutSeconds, selected: selected.length, counts: countResults(outcomes), outcomes }, null, 2)}\n`);
  };
  console.error(`running ${selected.length} of ${suiteTests.length} tests against ${server}, one per process, ${workers} at a time, timeout ${timeoutSeconds}s`);
  await pool(selected, workers, async (name, w) => {
    // A kvstore failure the gate would call a regression is run once more: only a reproducible one gates.
    const outcome = await runWithRetry(binary, trees[w]!, name, timeoutSeconds, (o) => server === 'kvstore' && judge(o, lists).verdict === 'regression', { isolate: workers > 1 });
    done.set(name, outcome);
    save();
    const retried = outcome.firstAttempt ? ` (retried; first ${outcome.firstAttempt.result}: ${outcome.firstAttempt.reason ?? ''})` : '';
    console.error(`[${done.size}/${selected.length}] ${name} ${outcome.result} ${outcome.seconds}s${outcome.reason ? `  ${outcome.reason}` : ''}${retried}`);
  });
  const outcomes = selected.map((t) => done.get(t)!);
  const report = gate(outcomes, lists, suiteTests);
  console.log(formatTable(server, report.judged, lists));
  const counts = countResults(outcomes);
  console.log(`\n${server}: ${counts.pass} pass, ${counts.skip} skip, ${counts.fail} fail, ${counts.timeout} timeout of ${outcomes.length}; results in ${resultsPath}`);
  if (server === 'etcd') {
    const changes = referenceChanges(outcomes, lists);
    if (changes.length > 0) console.log(`differences from reference.json:\n  ${changes.join('\n  ')}`);
    if (values.record) {
      const ref = writeReference(outcomes, { server: `etcd 3.4.23 (${ETCD_BIN})`, machine: `${hostname()}, ${cpus().length} cpus`, timeoutSeconds }, partial ? lists.reference : undefined);
      console.log(`recorded reference.json: ${ref.counts.pass} pass, ${ref.counts.skip} skip, ${ref.counts.fail} fail, ${ref.counts.timeout} timeout`);
    }
    return 0;
  }
  const flaky = outcomes.filter((o) => o.firstAttempt !== undefined && (o.result === 'pass' || o.result === 'skip'));
  if (flaky.length > 0) console.log(`FLAKY (failed, then passed on a retry):\n  ${flaky.map((o) => `${o.name}: first ${o.firstAttempt?.reason ?? o.firstAttempt?.result}`).join('\n  ')}`);
  if (report.listChanges.length > 0) console.log(`lists to update:\n  ${report.listChanges.join('\n  ')}`);
  if (report.regressions.length > 0) {
    console.log(`REGRESSIONS (fail on ${server}, pass on etcd, in neither list):\n  ${report.regressions.map((j) => `${j.outcome.name}: ${j.outcome.reason ?? j.outcome.result}`).join('\n  ')}`);
    return 1;
  }
  return 0;
}
