// The operator killed mid-upgrade resumes where it stopped: `kvstore-operator run` as a child
// process (kubeconfig file for the test API server, every namespace watched, leader election on
// a short Lease, member addresses through --member-address-map) starts 3.4.0 → 3.5.0; once one
// member runs 3.5.0 — held there by a v2 wait longer than the test, so no action is in flight — it
// is SIGKILLed; a second `run` takes the Lease over, still holds, and once the test releases the
// wait (upgrade.v2WaitSeconds lowered to 0) completes the upgrade from status: the upgrade is not
// started again (one UpgradeStarted, the same snapshot), no member is restarted twice.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '../../support/eventually.js';
import { openKv, put } from '../../support/kv-client.js';
import { killGroup, registry } from '../../support/registry.js';
import { NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 120_000;
const PODS = ['demo-0', 'demo-1', 'demo-2'];
const OPERATOR_MAIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'operator', 'main.js');
let fx: KubeFixture;

before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.close();
});

function startOperator(n: number, kubeconfig: string, addressMap: string): ChildProcess {
  const log = openSync(join(fx.rootDir, `operator-${n}.log`), 'a');
  const child = spawn(process.execPath, [
    OPERATOR_MAIN, 'run',
    '--kubeconfig', kubeconfig,
    '--namespace', 'all',
    '--leader-elect', '--leader-election-namespace', NS,
    '--leader-elect-lease-duration', '3s', '--leader-elect-renew-deadline', '2s', '--leader-elect-retry-period', '500ms',
    '--metrics-bind-address', '127.0.0.1:0',
    '--snapshot-dir', fx.snapshotDir,
    '--member-address-map', addressMap,
    '--log-level', 'debug',
  ], { stdio: ['ignore', log, log], detached: true, env: { ...process.env, POD_NAME: `operator-${n}` } });
  registry.track(child);
  return child;
}

function lastLines(n: number): string {
  try {
    return readFileSync(join(fx.rootDir, `operator-${n}.log`), 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

async function leaseHolder(): Promise<string> {
  const res = await fetch(`${fx.api.url}/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/kvstore-operator`);
  if (!res.ok) return '';
  return ((await res.json()) as { spec?: { holderIdentity?: string } }).spec?.holderIdentity ?? '';
}

void test('an operator killed mid-upgrade is replaced by one that completes the upgrade from status', { timeout: 5 * BOUND }, async (t) => {
  const kubeconfig = join(fx.rootDir, 'kubeconfig.json');
  writeFileSync(kubeconfig, fx.api.kubeConfig(NS).exportConfig());
  // The runner keeps the map file current: the members placed now, the rehearsal's scratch pod
  // (dialled at its pod IP) when it starts.
  const addressMap = fx.addressMapFile;
  for (const p of PODS) await fx.runner.place(p, 'demo-peer', [2379, 2380], NS);

  const first = startOperator(1, kubeconfig, addressMap);
  await fx.createCluster('demo', {
    size: 3,
    version: '3.4.0',
    options: { enableV2: true },
    upgrade: { v2WaitSeconds: 3600, v2ThresholdBytes: 1, memberHealthTimeoutSeconds: 120 },
  });
  await eventually('Running at 3.4.0', async () => {
    const c = await fx.getCluster('demo');
    return c?.status?.phase === 'Running' && c.status.clusterVersion === '3.4.0' ? true : undefined;
  }, { timeoutMs: BOUND, describe: () => `${fx.describe(PODS)}\noperator:\n${lastLines(1)}` });
  const firstHolder = await leaseHolder();
  assert.match(firstHolder, /^operator-1_/);

  const kv = openKv(new URL(await fx.runner.urlOf('demo-0', 2379, NS)).host);
  try {
    await put(kv, 'greeting', 'hello', 10_000);
  } finally {
    kv.close();
  }
  await fx.patchSpec('demo', { version: '3.5.0' });
  const mid = await eventually('one member upgraded', async () => {
    const c = await fx.getCluster('demo');
    return c?.status?.upgrade?.state === 'WaitingV2' && c.status.upgrade.membersDone.length === 1 ? c : undefined;
  }, { timeoutMs: BOUND, intervalMs: 100, describe: () => lastLines(1) });
  killGroup(first, 'SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const snapshot = mid.status?.upgrade?.snapshot;
  assert.ok(snapshot !== undefined);
  t.diagnostic(`killed the operator with ${mid.status?.upgrade?.membersDone.join(',')} done; snapshot ${snapshot.file}`);

  const second = startOperator(2, kubeconfig, addressMap);
  try {
    await eventually('the second operator holds the Lease', async () => ((await leaseHolder()).startsWith('operator-2_') ? true : undefined), {
      timeoutMs: BOUND, describe: () => lastLines(2),
    });
    const held = await fx.getCluster('demo');
    assert.equal(held?.status?.upgrade?.state, 'WaitingV2', 'still held at the v2 wait');
    assert.deepEqual(held?.status?.upgrade?.membersDone, mid.status?.upgrade?.membersDone);
    await fx.patchSpec('demo', { upgrade: { v2WaitSeconds: 0 } });
    const done = await eventually('upgrade Completed', async () => {
      const c = await fx.getCluster('demo');
      return c?.status?.upgrade?.state === 'Completed' && c.status.clusterVersion === '3.5.0' ? c : undefined;
    }, { timeoutMs: 3 * BOUND, describe: () => `${fx.describe(PODS)}\noperator 2:\n${lastLines(2)}` });
    assert.match(await leaseHolder(), /^operator-2_/, 'the second operator holds the Lease');
    const up = done.status?.upgrade;
    assert.deepEqual(up?.snapshot, snapshot, 'the snapshot of the first operator, not a new one');
    assert.equal(up?.startedAt, mid.status?.upgrade?.startedAt, 'the same upgrade, resumed');
    assert.equal(up?.membersDone[0], mid.status?.upgrade?.membersDone[0]);
    assert.equal(new Set(up?.membersDone).size, 3);
    const files = readdirSync(dirname(snapshot.file)).filter((f) => f.startsWith('demo-'));
    assert.equal(files.length, 1, `one snapshot file: ${files.join(', ')}`);
    const reasons = (await fx.eventsWith('demo', 'UpgradeCompleted')).map((e) => e.reason);
    t.diagnostic(`events: ${reasons.join(', ')}`);
    assert.equal(reasons.filter((r) => r === 'UpgradeStarted').length, 1);
    assert.equal(reasons.filter((r) => r === 'MemberUpgradeStarted').length, 3);
    for (const p of PODS) assert.equal(fx.runner.runsOf(p, NS).length, 2, `${p} restarted exactly once`);
  } finally {
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
  }
  assert.equal(await leaseHolder(), '', 'a stopped leader releases the Lease');
});
