/**
 * `kvstore-operator local` on a cluster with auth enabled, spec.auth naming the root
 * credentials (a Secret manifest beside the cluster manifest): the operator keeps observing the
 * cluster as root (Running, members ready), and refuses the rolling upgrade 3.4 → 3.5
 * (`AuthUnsupported`: UpgradeBlocked, one Warning event, no member touched); 3.2 below 3.2.31
 * with auth must go to 3.2.31 first (`AuthNeeds3231`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createClient } from '../../ctl/client/index.js';
import { eventsWith, LocalOperator, waitStatus, writeManifest } from '../operator/local/local-operator.js';

const manifest = (name: string, version: string): string => `apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: ${name}
spec:
  size: 1
  version: ${version} # the version every member runs
  auth:
    secretName: root-credentials
`;

const SECRET = `apiVersion: v1
kind: Secret
metadata:
  name: root-credentials
stringData:
  username: root
  password: r00t-pw
`;

/** Adds the root user with the root role and turns auth on (as `etcdctl user add root; auth enable`). */
async function enableAuth(url: string): Promise<void> {
  const c = createClient({ endpoints: [url], dialTimeoutMs: 3000, commandTimeoutMs: 5000 });
  try {
    const add = await c.auth.userAdd('root', 'r00t-pw');
    assert.ok(add.ok, add.ok ? '' : add.error.message);
    const grant = await c.auth.userGrantRole('root', 'root');
    assert.ok(grant.ok, grant.ok ? '' : grant.error.message);
    const on = await c.auth.enable();
    assert.ok(on.ok, on.ok ? '' : on.error.message);
    const anonymous = await c.kv.get('x');
    assert.equal(anonymous.ok, false, 'auth is on: a request without a user is refused');
  } finally {
    c.close();
  }
}

const CASES = [
  { name: 'au', from: '3.4.0', to: '3.5.0', reason: 'AuthUnsupported', text: /rolling upgrade from 3\.4 to 3\.5 with auth is unsupported/ },
  { name: 'ax', from: '3.2.10', to: '3.3.0', reason: 'AuthNeeds3231', text: /upgrade to 3\.2\.31 first/ },
] as const;

for (const c of CASES) {
  void test(`local mode with auth enabled: ${c.from} → ${c.to} is refused (${c.reason}), the cluster stays observed as root`, async () => {
    const { file, clusterDir } = writeManifest(manifest(c.name, c.from), c.name);
    writeFileSync(join(dirname(file), 'root-credentials.yaml'), SECRET);
    const op = new LocalOperator(file, clusterDir);
    const up = await waitStatus(file, `Running at ${c.from}`, (s) => s.phase === 'Running' && s.readyMembers === '1/1', op);
    const url = up.members[0]!.clientURL;
    await enableAuth(url);

    // Still observed (health, a linearizable read, the membership: as root) with auth on.
    const seen = await waitStatus(file, 'a pass after auth was enabled', (s) => s.readyMembers === '1/1' && s.phase === 'Running', op);
    assert.equal(seen.members[0]?.healthy, true);

    writeFileSync(file, readFileSync(file, 'utf8').replace(`version: ${c.from} #`, `version: ${c.to} #`));
    const blocked = await waitStatus(file, `UpgradeBlocked ${c.reason}`, (s) => s.conditions.some((x) => x.type === 'UpgradeBlocked' && x.status === 'True'), op);
    const cond = blocked.conditions.find((x) => x.type === 'UpgradeBlocked');
    assert.equal(cond?.reason, c.reason, JSON.stringify(blocked.conditions));
    assert.match(cond?.message ?? '', c.text);
    assert.equal(blocked.phase, 'UpgradeBlocked');
    assert.equal(blocked.upgrade, undefined, 'no upgrade started');
    assert.ok(blocked.members.every((m) => m.version === c.from), 'no member touched');
    const events = await eventsWith(clusterDir, 'UpgradeBlocked');
    const warning = events.filter((e) => e.reason === 'UpgradeBlocked');
    assert.equal(warning.length, 1);
    assert.equal(warning[0]?.type, 'Warning');
    assert.ok(!events.some((e) => e.reason === 'UpgradeStarted' || e.reason === 'SnapshotTaken'));
    const version = (await (await fetch(`${url}/version`)).json()) as { etcdserver: string };
    assert.equal(version.etcdserver, c.from);
    assert.equal(await op.stop('SIGTERM'), 0);
  });
}
