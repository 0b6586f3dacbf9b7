// The rolling upgrade on Kubernetes (in-process operator, test API server, real kvstore pods):
// a 3-member 3.4.0 cluster with v2 data is upgraded to 3.5.0 under a continuous write load —
// no write fails beyond its retry, none is lost; the leader's snapshot is on the snapshot volume
// and matches its recorded SHA-256 and size before any member is touched; followers go first,
// the leader last; the v2 wait (threshold lowered, wait shortened) holds between members;
// status and events follow each step. Afterwards a downgrade to 3.4.0 is refused
// (UpgradeBlocked, a Warning event naming the snapshot) and nothing is touched.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { eventually } from '../../support/eventually.js';
import { openKv, readPrefix } from '../../support/kv-client.js';
import { ETCDCTL_BIN } from '../../support/paths.js';
import { PutStream, type PutStreamReport } from '../../support/put-stream.js';
import { unmatchedAcks } from '../../support/write-load.js';
import { condition, NS, startFixture, type ClusterDoc, type KubeFixture } from './fixture.js';

const BOUND = 120_000;
const PODS = ['demo-0', 'demo-1', 'demo-2'];
const PREFIX = 'load/';
let fx: KubeFixture;

before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.close();
});

async function podUids(): Promise<string[]> {
  const list = (await (await fetch(`${fx.api.url}/api/v1/namespaces/${NS}/pods`)).json()) as { items: { metadata: { name: string; uid: string } }[] };
  return list.items.filter((p) => PODS.includes(p.metadata.name)).map((p) => `${p.metadata.name}/${p.metadata.uid}`).sort();
}

void test('3.4.0 → 3.5.0 under a write load: snapshot first, followers then the leader, v2 wait, no write lost', { timeout: 4 * BOUND }, async (t) => {
  const op = await fx.startOperator();
  // The rehearsal's scratch pods as the kubelet starts them.
  const scratch: { name: string; images: string[] }[] = [];
  fx.runner.onStart = (pod) => {
    const spec = (pod.spec ?? {}) as { initContainers?: { image?: string }[]; containers?: { image?: string }[] };
    if ((pod.metadata.name ?? '').startsWith('demo-rehearsal-')) scratch.push({ name: pod.metadata.name ?? '', images: [...(spec.initContainers ?? []), ...(spec.containers ?? [])].map((c) => c.image ?? '') });
    return Promise.resolve();
  };
  await fx.createCluster('demo', {
    size: 3,
    version: '3.4.0',
    options: { enableV2: true },
    upgrade: { v2WaitSeconds: 3, v2ThresholdBytes: 1, memberHealthTimeoutSeconds: 120 },
  });
  await eventually('Running at 3.4.0', async () => {
    const c = await fx.getCluster('demo');
    return c?.status?.phase === 'Running' && c.status.clusterVersion === '3.4.0' ? true : undefined;
  }, { timeoutMs: BOUND, describe: () => fx.describe(PODS) });

  const endpoints = await fx.endpoints(PODS);
  const v2 = await fetch(`http://${endpoints[0]}/v2/keys/v2/greeting`, { method: 'PUT', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'value=hello' });
  assert.ok(v2.ok, `v2 put: ${v2.status} ${await v2.text()}`);

  // One put at a time round-robin over the members; a failed put is retried once on another
  // member, avoiding the one the operator has in flight (status.upgrade.currentMember).
  const stream = new PutStream(endpoints, PREFIX);
  const seen: string[] = [];
  const unavailable: string[] = [];
  const notUpgrading: string[] = [];
  let done: ClusterDoc | undefined;
  let report: PutStreamReport;
  let inFlight: string | undefined;
  stream.start();
  try {
    await eventually('writes acknowledged before the upgrade', async () => (stream.ackedCount >= 30 ? true : undefined));
    await fx.patchSpec('demo', { version: '3.5.0' });
    done = await eventually('upgrade Completed at cluster version 3.5.0', async () => {
      const c = await fx.getCluster('demo');
      const up = c?.status?.upgrade;
      const step = `${up?.state ?? '-'}:${up?.currentMember ?? ''}:${(up?.membersDone ?? []).join('+')}`;
      if (up !== undefined && seen[seen.length - 1] !== step) seen.push(step);
      if (condition(c?.status, 'Available')?.status !== 'True') unavailable.push(`${step} ${JSON.stringify(condition(c?.status, 'Available'))}`);
      const inProgress = up !== undefined && up.to === '3.5.0' && up.state !== 'Completed';
      if (inProgress && (c?.status?.phase !== 'Upgrading' || condition(c.status, 'Upgrading')?.status !== 'True')) notUpgrading.push(`${step} phase ${c?.status?.phase}`);
      if (up?.currentMember !== inFlight) {
        if (inFlight !== undefined) stream.setMaintenance(endpoints[PODS.indexOf(inFlight)] ?? '', false);
        inFlight = up?.currentMember;
        if (inFlight !== undefined) stream.setMaintenance(endpoints[PODS.indexOf(inFlight)] ?? '', true);
      }
      return up?.state === 'Completed' && c?.status?.clusterVersion === '3.5.0' ? c : undefined;
    }, { timeoutMs: 3 * BOUND, intervalMs: 100, describe: () => `${seen.join(' → ')}\n${fx.describe(PODS)}` });
    const afterCount = stream.ackedCount;
    await eventually('writes acknowledged after the upgrade', async () => (stream.ackedCount >= afterCount + 20 ? true : undefined));
  } finally {
    report = await stream.stop();
  }
  t.diagnostic(`status steps: ${seen.join(' → ')}`);
  assert.deepEqual(unavailable, [], 'Available stays True through the upgrade (one member down at a time)');
  assert.deepEqual(notUpgrading, [], 'phase Upgrading and Upgrading True while the upgrade runs');
  t.diagnostic(`${report.acked.size} puts acknowledged; ${report.retried.length} needed their retry`);
  for (const r of report.retried.slice(0, 5)) t.diagnostic(`retried ${r.key}: ${r.failures.map((f) => `${f.endpoint} ${f.error}`).join('; ')}`);
  assert.deepEqual(report.failedTwice.slice(0, 5), [], `${report.failedTwice.length} puts failed on their retry too`);
  const kv = openKv(endpoints[1] ?? '');
  try {
    const { kvs } = await readPrefix(kv, PREFIX);
    const bad = unmatchedAcks(report.acked, kvs);
    assert.deepEqual(bad.slice(0, 10), [], `${bad.length} acknowledged puts not read back`);
  } finally {
    kv.close();
  }

  // Status.
  const s = done.status;
  assert.ok(s !== undefined && s.upgrade !== undefined);
  assert.equal(s.upgrade.from, '3.4.0');
  assert.equal(s.upgrade.to, '3.5.0');
  assert.equal(s.downgradeFloor, '3.5');
  assert.equal(s.phase, 'Running');
  assert.ok(s.upgrade.finishedAt !== undefined);
  assert.ok(s.members.every((m) => m.version === '3.5.0' && m.healthy), JSON.stringify(s.members));
  assert.equal(condition(s, 'Upgrading')?.status, 'False');
  assert.equal(condition(s, 'UpgradeBlocked')?.status ?? 'False', 'False');

  // The snapshot: on the volume, as recorded.
  const snap = s.upgrade.snapshot;
  assert.ok(snap !== undefined, 'snapshot recorded');
  const bytes = await readFile(snap.file);
  assert.equal((await stat(snap.file)).size, snap.size);
  const image = bytes.subarray(0, bytes.length - 32);
  assert.equal(createHash('sha256').update(image).digest('hex'), snap.sha256, 'the recorded SHA-256 is the image digest');
  assert.equal(bytes.subarray(bytes.length - 32).toString('hex'), snap.sha256, 'and the file\'s trailer');
  const status = spawnSync(ETCDCTL_BIN, ['snapshot', 'status', snap.file, '-w', 'json'], { encoding: 'utf8', env: { ...process.env, ETCDCTL_API: '3' }, timeout: 30_000 });
  assert.equal(status.status, 0, status.stderr);
  const parsed = JSON.parse(status.stdout) as { revision: number; totalKey: number };
  assert.ok(parsed.revision >= snap.revision, `etcdctl snapshot status: revision ${parsed.revision} ≥ recorded ${snap.revision}`);
  assert.match(basename(snap.file), /^demo-3\.4\.0-to-3\.5\.0-\d{8}T\d{6}Z\.db$/);
  assert.ok(snap.file.startsWith(fx.snapshotDir), snap.file);

  // The rehearsal ran in one scratch pod of the TARGET member image, restored by its init container
  // from the operator's /rehearsal route, its member started, and the pod is deleted.
  fx.runner.onStart = undefined;
  assert.equal(scratch.length, 1, JSON.stringify(scratch));
  const pod = scratch[0]?.name ?? '';
  assert.equal(pod, `demo-rehearsal-${(s.upgrade.rehearsal?.id ?? '').slice('demo-'.length)}`);
  assert.deepEqual(scratch[0]?.images, ['kvstore/kvstore:3.5.0', 'kvstore/kvstore:3.5.0']);
  assert.equal(s.upgrade.rehearsal?.outcome, 'Passed');
  assert.match(fx.runner.initLogsOf(pod, NS), /restored from http:\/\/127\.0\.0\.1:\d+\/rehearsal\/default\/demo-rehearsal-/);
  assert.equal(fx.runner.runsOf(pod, NS).length, 1, 'its member ran once');
  await eventually('the scratch pod deleted', async () => ((await fetch(`${fx.api.url}/api/v1/namespaces/${NS}/pods/${pod}`)).status === 404 ? true : undefined), { timeoutMs: BOUND });

  // Events: started, snapshot before any member, followers before the leader, v2 waits, completed.
  const events = await fx.eventsWith('demo', 'UpgradeCompleted');
  const reasons = events.map((e) => e.reason);
  t.diagnostic(`events: ${reasons.join(', ')}`);
  const idx = (r: string): number => reasons.indexOf(r);
  assert.ok(idx('UpgradeStarted') >= 0 && idx('UpgradeStarted') < idx('SnapshotTaken'), reasons.join(','));
  assert.ok(idx('SnapshotTaken') < idx('MemberUpgradeStarted'), 'the snapshot before any member');
  // The rehearsal (a scratch member restored from that snapshot at the target) passed before any member.
  assert.ok(idx('SnapshotTaken') < idx('RehearsalStarted') && idx('RehearsalPassed') < idx('MemberUpgradeStarted'), reasons.join(','));
  // One member at a time, the v2 wait after each (the last too): from the events, every step recorded
  // (the sampled status steps above may skip a short state on a busy machine).
  const roll = reasons.filter((r) => r === 'MemberUpgradeStarted' || r === 'MemberUpgraded' || r === 'V2Wait');
  assert.deepEqual(roll, [0, 1, 2].flatMap(() => ['MemberUpgradeStarted', 'MemberUpgraded', 'V2Wait']), `one member at a time with the v2 wait after each: ${reasons.join(', ')}`);
  const starts = events.filter((e) => e.reason === 'MemberUpgradeStarted');
  const order = starts.map((e) => PODS.find((p) => e.message.includes(`restarting ${p}`)));
  assert.equal(new Set(order).size, 3, `each member once: ${starts.map((e) => e.message).join(' | ')}`);
  assert.equal(order[2], snap.member, 'the leader (the snapshot source) last');
  assert.match(starts[2]?.message ?? '', /the leader, last/);
  assert.ok(!/the leader/.test(starts[0]?.message ?? '') && !/the leader/.test(starts[1]?.message ?? ''), 'followers first');
  assert.ok(reasons.filter((r) => r === 'V2Wait').length >= 1, 'V2Wait event');
  assert.ok(idx('UpgradeCompleted') > reasons.lastIndexOf('MemberUpgradeStarted'));
  for (const p of PODS) assert.equal(fx.runner.runsOf(p, NS).length, 2, `${p} restarted exactly once`);
  const metrics = await op.registry.metrics();
  assert.match(metrics, /kvstore_operator_upgrades_started_total\{namespace="default",cluster="demo"\} 1/);
  assert.match(metrics, /kvstore_operator_upgrades_completed_total\{namespace="default",cluster="demo"\} 1/);
  assert.match(metrics, /kvstore_operator_member_upgrade_duration_seconds_count\{namespace="default",cluster="demo"\} 3/);
  const sts = (await (await fetch(`${fx.api.url}/apis/apps/v1/namespaces/${NS}/statefulsets/demo`)).json()) as { spec: { template: { spec: { containers: { image: string }[] } } } };
  assert.equal(sts.spec.template.spec.containers[0]?.image, 'kvstore/kvstore:3.5.0');
});

void test('after completion a downgrade is refused: UpgradeBlocked, a Warning naming the snapshot, nothing touched', { timeout: BOUND }, async () => {
  const before = await fx.getCluster('demo');
  const snapshot = before?.status?.upgrade?.snapshot?.file;
  assert.ok(snapshot !== undefined, 'the first test completed an upgrade');
  const uids = await podUids();
  await fx.patchSpec('demo', { version: '3.4.0' });
  const blocked = await eventually('UpgradeBlocked', async () => {
    const c = await fx.getCluster('demo');
    return condition(c?.status, 'UpgradeBlocked')?.status === 'True' ? c : undefined;
  }, { timeoutMs: BOUND });
  assert.equal(condition(blocked.status, 'UpgradeBlocked')?.reason, 'DowngradeRefused');
  assert.equal(blocked.status?.phase, 'UpgradeBlocked');
  const refused = await eventually('DowngradeRefused event', async () => (await fx.events('demo')).find((e) => e.reason === 'DowngradeRefused'));
  assert.equal(refused.type, 'Warning');
  assert.ok(refused.message.includes(snapshot), refused.message);
  assert.match(refused.message, /kvstorectl snapshot restore/);
  // A few more passes: still nothing touched.
  await fx.patchSpec('demo', { paused: false });
  await new Promise((r) => setTimeout(r, 3000));
  assert.deepEqual(await podUids(), uids, 'no pod replaced');
  for (const p of PODS) assert.equal(fx.runner.runsOf(p, NS).length, 2, `${p} not restarted`);
  const c = await fx.getCluster('demo');
  assert.ok(c?.status?.members.every((m) => m.version === '3.5.0'));
  assert.equal((await fx.events('demo')).filter((e) => e.reason === 'DowngradeRefused').length, 1, 'one Warning, not one per pass');
});
