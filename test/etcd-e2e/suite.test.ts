/**
 * etcd 3.4's own e2e suite, run against kvstore and gated on etcd's recorded results.
 *
 * By default a fixed subset of fast tests (CI_SUBSET, one or two per area) runs one at a time.
 * `KVSTORE_ETCD_E2E=whole` runs the WHOLE suite instead, two tests at a time, each in a network
 * namespace and a scratch tree of its own (isolation.ts: root or a user namespace, and iproute2's
 * `ip`); every test of reference.json is then a subtest (give node's runner a file timeout above
 * 10 minutes). Not the default: the whole suite takes 7–13 minutes here, and some of its tests have
 * internal limits that etcd itself only just meets on these machines (TestCtlV3AuthFromKeyPerm:
 * 15 s allowed, etcd takes 15.4 s), so under CI's load they fail on either server.
 * Each test runs in its own process exactly as `run.mjs` does; a subtest fails when the gate calls
 * the result a regression (kvstore fails a test etcd passes, and neither accepted.json nor
 * known-open.json names it) on a retry too. Skipped only when Go or Debian's golang-etcd-server-dev
 * is missing (CI's .ci/run installs both).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ensureSuiteBinary, prepareTree, type Tree } from './build.js';
import { judge, type Judged } from './gate.js';
import { isolationProblem } from './isolation.js';
import { readLists } from './lists.js';
import { missingPrerequisite } from './paths.js';
import { listTests, runWithRetry } from './run-one.js';
import { formatTable } from './table.js';

/** The subset: fast on kvstore (each < 10 s) and one or two per area. */
export const CI_SUBSET = [
  // v3 kv, txn, compaction
  'TestCtlV3Put',
  'TestCtlV3GetFormat',
  'TestCtlV3Del',
  'TestCtlV3TxnInteractiveSuccess',
  'TestCtlV3Compact',
  // watch, lease
  'TestCtlV3Watch',
  'TestCtlV3LeaseKeepAlive',
  'TestCtlV3LeaseRevoke',
  // auth (password, prefix permissions, client-cert CN)
  'TestCtlV3AuthEnable',
  'TestCtlV3AuthPrefixPerm',
  'TestCtlV3UserAdd',
  'TestCtlV3AuthCertCN',
  // membership, maintenance
  'TestCtlV3MemberAdd',
  'TestCtlV3MemberRemove',
  'TestCtlV3MemberList',
  'TestCtlV3EndpointHealth',
  'TestCtlV3Snapshot',
  // concurrency API
  'TestCtlV3Lock',
  'TestCtlV3Elect',
  // v2 keys (etcdctl v2 and curl)
  'TestCtlV2Set',
  'TestCtlV2Ls',
  'TestV2CurlNoTLS',
  // TLS on client and peer ports, the HTTP gateway over TLS, a config file
  'TestCtlV3PutClientTLS',
  'TestCtlV3GetPeerTLS',
  'TestV3CurlPutGetAllTLS',
  'TestEtcdExampleConfig',
] as const;

/** Per test: 60 s is plenty for the subset's; the whole suite has tests of 40 s alone. */
const PER_TEST_TIMEOUT_S = process.env.KVSTORE_ETCD_E2E === 'whole' ? 120 : 60;
const missing = missingPrerequisite();
const lists = readLists();
const wanted = process.env.KVSTORE_ETCD_E2E === 'whole';
const isolation = missing === undefined && wanted ? isolationProblem() : undefined;
const whole = missing === undefined && wanted && isolation === undefined;
const WORKERS = whole ? 2 : 1;
const selected: readonly string[] = whole ? Object.keys(lists.reference?.tests ?? {}) : CI_SUBSET;
const title = whole ? 'etcd 3.4 e2e suite against kvstore (whole suite, 2 at a time)' : 'etcd 3.4 e2e suite against kvstore (CI subset)';

/** Scratch trees, one per worker, lent to one test at a time. */
class TreePool {
  readonly #free: Tree[];
  readonly #waiting: Array<(t: Tree) => void> = [];
  constructor(trees: Tree[]) {
    this.#free = trees;
  }
  async lend<T>(use: (t: Tree) => Promise<T>): Promise<T> {
    const tree = this.#free.pop() ?? (await new Promise<Tree>((resolve) => this.#waiting.push(resolve)));
    try {
      return await use(tree);
    } finally {
      const next = this.#waiting.shift();
      if (next) next(tree);
      else this.#free.push(tree);
    }
  }
}

void describe(title, { skip: missing === undefined ? false : `etcd e2e suite unavailable: ${missing}`, concurrency: WORKERS }, () => {
  let binary = '';
  let trees: TreePool;
  const judged: Judged[] = [];

  // The table of every test run: kvstore's result beside etcd 3.4's recorded one.
  after(() => {
    if (judged.length === 0) return;
    const order = new Map(selected.map((n, i) => [n, i]));
    judged.sort((a, b) => (order.get(a.outcome.name) ?? 0) - (order.get(b.outcome.name) ?? 0));
    console.log(formatTable('kvstore', judged, lists));
    const pass = judged.filter((j) => j.outcome.result === 'pass').length;
    console.log(`kvstore: ${pass} pass of ${judged.length}; etcd 3.4: ${lists.reference?.counts.pass ?? '?'} pass of ${Object.keys(lists.reference?.tests ?? {}).length}`);
  });

  before(async () => {
    binary = await ensureSuiteBinary();
    const made = Array.from({ length: WORKERS }, (_, w) => prepareTree('kvstore', `kvstore-ci-${w}`));
    trees = new TreePool(made);
    if (!whole) return;
    // The subtests are reference.json's tests: the binary must hold exactly those.
    const inBinary = await listTests(binary, made[0]!);
    assert.deepEqual([...inBinary].sort(), [...selected].sort(), 'reference.json lists the tests of the built suite');
  });

  const why = isolation === undefined ? 'KVSTORE_ETCD_E2E=whole runs all of it' : `the whole suite needs network namespaces: ${isolation}`;
  void it(whole ? 'runs every test of the suite, in network namespaces of its own' : `runs a subset (${why})`, (t) => {
    t.diagnostic(`${selected.length} tests, ${WORKERS} at a time, ${PER_TEST_TIMEOUT_S} s each at most`);
  });

  for (const name of selected) {
    void it(name, async (t) => {
      // Only a reproducible regression fails: a failure the gate would reject is run once more.
      const outcome = await trees.lend((tree) =>
        runWithRetry(binary, tree, name, PER_TEST_TIMEOUT_S, (o) => judge(o, lists).verdict === 'regression', { isolate: whole }),
      );
      const j = judge(outcome, lists);
      judged.push(j);
      if (outcome.firstAttempt) t.diagnostic(`FLAKY? first attempt ${outcome.firstAttempt.result}: ${outcome.firstAttempt.reason ?? ''}`);
      const ref = lists.reference?.tests[name];
      t.diagnostic(`kvstore ${outcome.result} ${outcome.seconds}s | etcd 3.4 ${ref ? `${ref.result} ${ref.seconds}s` : 'not recorded'} | ${j.verdict}`);
      if (j.verdict === 'fixed') t.diagnostic(`passes now: remove ${name} from ${j.listFile}`);
      assert.notEqual(j.verdict, 'regression', `${name} fails on kvstore but passes on etcd 3.4: ${outcome.reason ?? ''}\n${outcome.tail ?? ''}`);
    });
  }
});
