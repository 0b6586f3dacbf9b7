/**
 * The engine with fake ports and a stand-in reconcile: a pass executes the plan in order and
 * writes status + events; a failed action stops the rest and sets Degraded; a snapshot's
 * outcome reaches the next pass; a hung member does not stall observation; metrics counted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, type EngineDeps } from '../../../operator/controller/engine.js';
import type { Observed, Plan } from '../../../operator/controller/model.js';
import { portFail, portOk, type AdminSource, type MemberAdmin, type ReconcileFn } from '../../../operator/controller/ports.js';
import { cluster, emptyStatus, FakeAdmin, FakePlatform, FakeSnapshots, Recorder, urlOf } from './fakes.js';

function setup(reconcile: ReconcileFn, opts: { admin?: FakeAdmin; platform?: FakePlatform; adminSource?: AdminSource } = {}) {
  const rec = new Recorder();
  const platform = opts.platform ?? new FakePlatform();
  const admin = opts.admin ?? new FakeAdmin();
  const snapshots = new FakeSnapshots();
  let now = Date.parse('2026-11-21T10:00:00Z');
  const deps: EngineDeps = {
    platform, admin: opts.adminSource ?? admin, snapshots, status: rec.status, events: rec.eventSink, clock: { now: () => now }, metrics: rec.metrics, logger: rec.logger, reconcile,
    observeTimeoutMs: 300,
  };
  return { engine: new Engine(deps), rec, platform, admin, snapshots, tick: (ms: number) => (now += ms) };
}

const plan = (p: Partial<Plan>): Plan => ({ actions: [], status: emptyStatus(), events: [], ...p });

void test('a pass runs the plan in order, writes the status and the events, returns the requeue', async () => {
  const seen: Observed[] = [];
  const { engine, rec, platform, snapshots } = setup((_c, o) => {
    seen.push(o);
    return plan({
      actions: [{ kind: 'SetTemplateVersion', version: '3.5.0' }, { kind: 'RestartMember', name: 'demo-1' }, { kind: 'PruneSnapshots', keep: 3 }],
      status: { ...emptyStatus(), phase: 'Upgrading' },
      events: [{ type: 'Normal', reason: 'UpgradeStarted', message: 'from 3.4.0 to 3.5.0' }],
      requeueAfterSeconds: 2,
    });
  });
  const r = await engine.pass(cluster());
  assert.equal(r.error, undefined);
  assert.equal(r.requeueAfterSeconds, 2);
  assert.deepEqual(platform.calls, ['template 3.5.0', 'restart demo-1']);
  assert.deepEqual(snapshots.pruned, [3]);
  assert.equal(rec.statuses.length, 1); // announced before the restart; unchanged after it
  assert.equal(rec.statuses[0].phase, 'Upgrading');
  assert.deepEqual(rec.events.map((e) => e.reason), ['UpgradeStarted']);
  assert.deepEqual(rec.counted, ['started ns/demo']);
  // What reconcile saw: three probed members, one leader, the membership.
  const o = seen[0];
  assert.equal(o.members.length, 3);
  assert.deepEqual(o.members.map((m) => m.probe?.isLeader), [true, false, false]);
  assert.equal(o.members[1].probe?.memberId, '0000000000000002');
  assert.equal(o.clusterMembers?.length, 3);
  assert.ok(rec.lines.some((l) => l.includes('"action":"RestartMember"') && l.includes('"member":"demo-1"')));
});

void test('a failed action stops the rest; the status is written with Degraded and a Warning event', async () => {
  const platform = new FakePlatform();
  platform.failOn = 'restart demo-1';
  const { engine, rec } = setup(
    () => plan({ actions: [{ kind: 'RestartMember', name: 'demo-1' }, { kind: 'RestartMember', name: 'demo-2' }], requeueAfterSeconds: 60 }),
    { platform },
  );
  const r = await engine.pass(cluster());
  assert.match(r.error ?? '', /restart demo-1 refused/);
  assert.equal(r.requeueAfterSeconds, 5);
  assert.deepEqual(platform.calls, ['restart demo-1']);
  // Written before the restart (the member going down is announced), then with Degraded.
  assert.equal(rec.statuses.length, 2);
  assert.equal(rec.statuses[0].conditions.length, 0);
  const deg = rec.statuses[1].conditions.find((c) => c.type === 'Degraded');
  assert.equal(deg?.status, 'True');
  assert.equal(deg?.reason, 'ActionFailed');
  assert.match(deg?.message ?? '', /RestartMember failed: restart demo-1 refused/);
  assert.deepEqual(rec.events.map((e) => `${e.type} ${e.reason}`), ['Warning ActionFailed']);
  assert.deepEqual(rec.counted, ['error ns/demo']);
});

void test('a membership change refused as unhealthy cluster waits: no Degraded, no event, pass again soon', async () => {
  const admin = new FakeAdmin();
  admin.addError = 'Cluster.MemberAdd: etcdserver: unhealthy cluster';
  const { engine, rec } = setup(
    () =>
      plan({
        actions: [{ kind: 'AddLearner', name: 'demo-3', peerURL: 'http://127.0.0.13:2380' }, { kind: 'EnsureObjects', version: '3.4.0', replicas: 4 }],
        events: [{ type: 'Normal', reason: 'MemberAdded', message: 'adding demo-3 as a learner' }],
        requeueAfterSeconds: 5,
      }),
    { admin },
  );
  const r = await engine.pass(cluster());
  assert.equal(r.error, undefined);
  assert.equal(r.requeueAfterSeconds, 5);
  assert.equal(admin.membership.length, 1);
  assert.equal(rec.events.length, 0, 'neither the planned MemberAdded nor ActionFailed');
  assert.deepEqual(rec.counted, []);
  const last = rec.statuses.at(-1)!;
  assert.equal(last.conditions.find((c) => c.type === 'Degraded'), undefined);
  const prog = last.conditions.find((c) => c.type === 'Progressing');
  assert.equal(prog?.reason, 'WaitingForHealthyCluster');
  assert.match(prog?.message ?? '', /AddLearner waits: .*unhealthy cluster/);

  // Any other refusal is still a failure.
  admin.addError = 'Cluster.MemberAdd: etcdserver: Peer URLs already exists';
  const r2 = await engine.pass(cluster());
  assert.match(r2.error ?? '', /Peer URLs already exists/);
  assert.deepEqual(rec.events.map((e) => `${e.type} ${e.reason}`), ['Normal MemberAdded', 'Warning ActionFailed']);
});

void test('the outcome of a snapshot is fed to the next pass, then dropped once a status was written', async () => {
  const seen: (Observed['snapshotOutcome'])[] = [];
  let passes = 0;
  const { engine, admin } = setup((_c, o) => {
    seen.push(o.snapshotOutcome);
    passes++;
    return passes === 1
      ? plan({ actions: [{ kind: 'TakeSnapshot', member: 'demo-0', clientURL: urlOf(0), file: 'demo-3.4.0-to-3.5.0.db', forVersion: '3.5.0' }] })
      : plan({});
  });
  await engine.pass(cluster());
  await engine.pass(cluster());
  await engine.pass(cluster());
  assert.deepEqual(admin.snapshots, [`${urlOf(0)} /snap/demo-3.4.0-to-3.5.0.db`]);
  assert.equal(seen[0], undefined);
  const o = seen[1];
  assert.ok(o?.ok === true);
  assert.equal(o.forVersion, '3.5.0');
  assert.deepEqual({ ...o.record, takenAt: '' }, { file: '/snap/demo-3.4.0-to-3.5.0.db', sha256: 'ab'.repeat(32), revision: 100, size: 4128, member: 'demo-0', takenAt: '' });
  assert.equal(seen[2], undefined);
});

void test('a failed snapshot stops the pass and its failure reaches the next pass', async () => {
  const admin = new FakeAdmin();
  admin.snapshotError = 'Maintenance.Snapshot at x: connection refused';
  const seen: (Observed['snapshotOutcome'])[] = [];
  let passes = 0;
  const { engine, platform } = setup((_c, o) => {
    seen.push(o.snapshotOutcome);
    return ++passes === 1
      ? plan({ actions: [{ kind: 'TakeSnapshot', member: 'demo-0', clientURL: urlOf(0), file: 'x.db', forVersion: '3.5.0' }, { kind: 'RestartMember', name: 'demo-1' }] })
      : plan({});
  }, { admin });
  const r = await engine.pass(cluster());
  assert.match(r.error ?? '', /connection refused/);
  assert.deepEqual(platform.calls, []);
  await engine.pass(cluster());
  assert.deepEqual(seen[1], { ok: false, forVersion: '3.5.0', error: 'Maintenance.Snapshot at x: connection refused' });
});

void test('a hung member does not stall the observation: it is reported without a probe', async () => {
  const admin = new FakeAdmin();
  admin.hung.add(urlOf(2));
  const seen: Observed[] = [];
  const { engine } = setup((_c, o) => (seen.push(o), plan({})), { admin });
  await engine.pass(cluster());
  assert.equal(seen[0].members[2].probe, undefined);
  assert.equal(seen[0].members[0].probe?.healthy, true);
});

void test('a reconcile that throws is a counted error, not a crash', async () => {
  const { engine, rec } = setup(() => {
    throw new Error('bug');
  });
  const r = await engine.pass(cluster());
  assert.match(r.error ?? '', /reconcile threw: Error: bug/);
  assert.deepEqual(rec.counted, ['error ns/demo']);
  assert.equal(rec.statuses.length, 0);
});

void test('member upgrade duration: from in flight to done; an unchanged status is not rewritten', async () => {
  let step = 0;
  const { engine, rec, tick } = setup(() => {
    step++;
    const upgrade = { from: '3.4.0', to: '3.5.0', state: 'UpgradingMembers' as const, startedAt: '2026-11-21T10:00:00Z' };
    return step === 1
      ? plan({ status: { ...emptyStatus(), upgrade: { ...upgrade, currentMember: 'demo-1', membersDone: [] } } })
      : plan({ status: { ...emptyStatus(), upgrade: { ...upgrade, membersDone: ['demo-1'] } } });
  });
  const c1 = cluster(emptyStatus());
  await engine.pass(c1);
  tick(7000);
  await engine.pass(cluster(rec.statuses[0]));
  assert.deepEqual(rec.counted, ['duration ns/demo 7']);
  await engine.pass(cluster(rec.statuses[1]));
  assert.equal(rec.statuses.length, 2);
});

void test('membership actions go to the leader; ResetMember reaches the platform', async () => {
  const admin = new FakeAdmin(1);
  const { engine, platform } = setup(
    () => plan({ actions: [{ kind: 'AddLearner', name: 'demo-3', peerURL: 'http://127.0.0.99:2380' }, { kind: 'ResetMember', name: 'demo-3' }, { kind: 'PromoteLearner', memberId: '0000000000000009' }] }),
    { admin },
  );
  const r = await engine.pass(cluster());
  assert.equal(r.error, undefined);
  assert.deepEqual(admin.membership, [`add ${urlOf(1)} http://127.0.0.99:2380`, `promote ${urlOf(1)} 0000000000000009`]);
  assert.deepEqual(platform.calls, ['reset demo-3']);
});

void test('a failed status write keeps the snapshot outcome for the next pass', async () => {
  const seen: (Observed['snapshotOutcome'])[] = [];
  let passes = 0;
  const { engine, rec } = setup((_c, o) => {
    seen.push(o.snapshotOutcome);
    return ++passes === 1 ? plan({ actions: [{ kind: 'TakeSnapshot', member: 'demo-0', clientURL: urlOf(0), file: 's.db', forVersion: '3.5.0' }] }) : plan({});
  });
  let failWrites = true;
  const write = rec.status.write;
  (rec.status as { write: typeof write }).write = (c, s) => (failWrites ? Promise.resolve({ ok: false, error: 'disk full' }) : write(c, s));
  await engine.pass(cluster());
  const second = await engine.pass(cluster());
  assert.equal(second.error, 'status not written');
  failWrites = false;
  await engine.pass(cluster());
  await engine.pass(cluster());
  assert.deepEqual(seen.map((o) => o?.ok), [undefined, true, true, undefined]);
});

void test('the status is written before a member is taken down; a failed write cancels the restart', async () => {
  const { engine, rec, platform } = setup(() =>
    plan({ actions: [{ kind: 'RestartMember', name: 'demo-2' }], status: { ...emptyStatus(), phase: 'Upgrading' } }),
  );
  const order: string[] = [];
  const write = rec.status.write;
  let fail = true;
  (rec.status as { write: typeof write }).write = (c, s) => {
    order.push(`status ${s.phase}`);
    return fail ? Promise.resolve({ ok: false, error: 'conflict' }) : write(c, s);
  };
  const r = await engine.pass(cluster());
  assert.match(r.error ?? '', /status not written before taking a member down/);
  assert.deepEqual(platform.calls, []);
  fail = false;
  const restart = platform.restartMember.bind(platform);
  platform.restartMember = (c, n) => (order.push(`restart ${n}`), restart(c, n));
  await engine.pass(cluster());
  assert.deepEqual(order, ['status Upgrading', 'status Upgrading', 'restart demo-2']);
});

void test('the admin of a pass comes from the source; an access that cannot be read fails the pass with a Warning event', async () => {
  const good = new FakeAdmin();
  let loaded = 0;
  let failWith: string | undefined = undefined;
  const source: AdminSource = {
    adminFor: (c) => {
      loaded++;
      assert.equal(c.metadata.name, 'demo');
      return Promise.resolve(failWith === undefined ? portOk<MemberAdmin>(good) : portFail(failWith));
    },
    close: () => undefined,
  };
  const seen: Observed[] = [];
  const { engine: withSource, rec } = setup((_c, o) => (seen.push(o), plan({})), { adminSource: source });
  const ok = await withSource.pass(cluster());
  assert.equal(ok.error, undefined);
  assert.equal(seen[0]?.members.length, 3, 'observed through the admin the source gave');
  failWith = 'Secret demo-operator-tls (the operator\'s client certificate) not found';
  const bad = await withSource.pass(cluster());
  assert.match(bad.error ?? '', /member access: Secret demo-operator-tls .* not found/);
  assert.equal(bad.requeueAfterSeconds, 5);
  assert.equal(seen.length, 1, 'no observation without access');
  assert.deepEqual(rec.events.map((e) => `${e.type} ${e.reason}`), ['Warning MemberAccessUnavailable']);
  assert.match(rec.events[0]?.message ?? '', /demo-operator-tls/);
  assert.equal(loaded, 2);
});
