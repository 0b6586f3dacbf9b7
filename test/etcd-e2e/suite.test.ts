/**
 * CI-sized slice of etcd 3.4's own e2e suite, run against kvstore and gated on etcd's recorded results.
 *
 * The whole suite (243 tests, ~11 min) runs with `npm run e2e:etcd`; here a fixed subset of fast tests,
 * each a few seconds on kvstore, covers one or two tests per area (v3 put/get/del/watch/lease/txn, auth,
 * membership, v2 keys, TLS and curl on the gateway). Each runs in its own process exactly as
 * `run.mjs` does; a subtest fails when the gate calls the result a regression (kvstore fails a test
 * etcd passes, and neither accepted.json nor known-open.json names it) on a retry too. Skipped, not
 * failed, only when Go or Debian's golang-etcd-server-dev is missing (CI's .ci/run installs both).
 */
import assert from 'node:assert/strict';
import { describe, it, before } from 'node:test';
import { ensureSuiteBinary, prepareTree, type Tree } from './build.js';
import { judge } from './gate.js';
import { readLists } from './lists.js';
import { missingPrerequisite } from './paths.js';
import { runWithRetry } from './run-one.js';

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

const PER_TEST_TIMEOUT_S = 60;
const missing = missingPrerequisite();

void describe('etcd 3.4 e2e suite against kvstore (CI subset)', { skip: missing === undefined ? false : `etcd e2e suite unavailable: ${missing}` }, () => {
  let binary = '';
  let tree: Tree;
  const lists = readLists();

  before(async () => {
    binary = await ensureSuiteBinary();
    tree = prepareTree('kvstore', 'kvstore-ci');
  });

  for (const name of CI_SUBSET) {
    void it(name, async (t) => {
      // Only a reproducible regression fails: a failure the gate would reject is run once more.
      const outcome = await runWithRetry(binary, tree, name, PER_TEST_TIMEOUT_S, (o) => judge(o, lists).verdict === 'regression');
      const j = judge(outcome, lists);
      if (outcome.firstAttempt) t.diagnostic(`FLAKY? first attempt ${outcome.firstAttempt.result}: ${outcome.firstAttempt.reason ?? ''}`);
      const ref = lists.reference?.tests[name];
      t.diagnostic(`kvstore ${outcome.result} ${outcome.seconds}s | etcd 3.4 ${ref ? `${ref.result} ${ref.seconds}s` : 'not recorded'} | ${j.verdict}`);
      if (j.verdict === 'fixed') t.diagnostic(`passes now: remove ${name} from ${j.listFile}`);
      assert.notEqual(j.verdict, 'regression', `${name} fails on kvstore but passes on etcd 3.4: ${outcome.reason ?? ''}\n${outcome.tail ?? ''}`);
    });
  }
});
