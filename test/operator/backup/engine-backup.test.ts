// The engine with a TakeBackup in the plan (fake ports, a stand-in reconcile, an in-memory
// backup store): the outcome reaches the next pass and is then dropped; it is counted at once;
// a failed backup is an outcome, not a failed action (no Degraded, no ActionFailed, the rest
// of the plan runs); PruneBackups reaches the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KvstoreCluster, RetainedBackup } from '../../../operator/api/types.js';
import type { BackupStore, BackupStores } from '../../../operator/controller/backup/store-port.js';
import { Engine } from '../../../operator/controller/engine.js';
import type { Observed, Plan } from '../../../operator/controller/model.js';
import { portFail, portOk, type BackupMetric, type PortResult, type SnapshotFile } from '../../../operator/controller/ports.js';
import { cluster, emptyStatus, FakeAdmin, FakePlatform, FakeSnapshots, Recorder, urlOf } from '../engine/fakes.js';

class MemoryStore implements BackupStore, BackupStores {
  readonly where = 'memory://';
  readonly items: RetainedBackup[] = [];
  failPublish: string | undefined;
  storeFor(_c: KvstoreCluster): Promise<PortResult<BackupStore>> {
    return Promise.resolve(portOk(this));
  }
  localFile(name: string): Promise<PortResult<string>> {
    return Promise.resolve(portOk(`/stage/${name}`));
  }
  publish(name: string, file: SnapshotFile): Promise<PortResult<string>> {
    if (this.failPublish !== undefined) return Promise.resolve(portFail(this.failPublish));
    this.items.push({ name, uri: `memory://${name}`, time: '2026-11-21T10:00:00Z', size: file.size });
    return Promise.resolve(portOk(`memory://${name}`));
  }
  discard(): Promise<void> {
    return Promise.resolve();
  }
  list(): Promise<PortResult<readonly RetainedBackup[]>> {
    return Promise.resolve(portOk([...this.items]));
  }
  remove(names: readonly string[]): Promise<PortResult<void>> {
    for (const n of names) this.items.splice(this.items.findIndex((i) => i.name === n), 1);
    return Promise.resolve(portOk(undefined));
  }
}

function setup(reconcile: (o: Observed, pass: number) => Plan) {
  const rec = new Recorder();
  const finished: BackupMetric[] = [];
  const store = new MemoryStore();
  const admin = new FakeAdmin();
  let passes = 0;
  const engine = new Engine({
    platform: new FakePlatform(),
    admin,
    snapshots: new FakeSnapshots(),
    backups: store,
    status: rec.status,
    events: rec.eventSink,
    clock: { now: () => Date.parse('2026-11-21T10:00:00Z') },
    metrics: { ...rec.metrics, backupFinished: (_c, r) => finished.push(r) },
    logger: rec.logger,
    reconcile: (_c, o) => reconcile(o, ++passes),
    observeTimeoutMs: 300,
  });
  return { engine, rec, store, admin, finished };
}

const plan = (p: Partial<Plan>): Plan => ({ actions: [], status: emptyStatus(), events: [], ...p });
const take = { kind: 'TakeBackup', member: 'demo-0', clientURL: urlOf(0), name: 'demo-20261121T100000Z.db' } as const;

void test('engine: a backup outcome reaches the next pass, is counted at once, then dropped', async () => {
  const seen: Observed['backupOutcome'][] = [];
  const { engine, store, admin, finished } = setup((o, n) => {
    seen.push(o.backupOutcome);
    return n === 1 ? plan({ actions: [take], status: { ...emptyStatus(), phase: 'Running', readyMembers: '2/3' } }) : plan({});
  });
  const r = await engine.pass(cluster());
  assert.equal(r.error, undefined);
  assert.deepEqual(admin.snapshots, [`${urlOf(0)} /stage/demo-20261121T100000Z.db`]);
  assert.equal(finished.length, 1);
  assert.equal(finished[0].ok, true);
  assert.equal(finished[0].bytes, 4128);
  await engine.pass(cluster());
  await engine.pass(cluster());
  assert.equal(seen[0], undefined);
  const o = seen[1];
  assert.ok(o?.ok === true);
  assert.equal(o.record.uri, 'memory://demo-20261121T100000Z.db');
  assert.equal(o.record.sha256, 'ab'.repeat(32));
  assert.deepEqual(o.stored.map((b) => b.name), ['demo-20261121T100000Z.db']);
  assert.equal(seen[2], undefined);
  assert.equal(store.items.length, 1);
});

void test('engine: a failed backup is an outcome, not a failed action; the plan runs on; PruneBackups reaches the store', async () => {
  const seen: Observed['backupOutcome'][] = [];
  const { engine, rec, store, finished } = setup((o, n) => {
    seen.push(o.backupOutcome);
    return n === 1 ? plan({ actions: [take] }) : plan({ actions: [{ kind: 'PruneBackups', names: ['demo-20261121T090000Z.db'] }] });
  });
  store.failPublish = 'EACCES: permission denied';
  store.items.push({ name: 'demo-20261121T090000Z.db', uri: 'memory://old', time: '2026-11-21T09:00:00Z', size: 1 });
  const r = await engine.pass(cluster());
  assert.equal(r.error, undefined);
  assert.deepEqual(rec.events, []);
  assert.ok(!rec.statuses.some((s) => s.conditions.some((c) => c.type === 'Degraded' && c.status === 'True')));
  assert.deepEqual(finished.map((f) => f.ok), [false]);
  await engine.pass(cluster());
  assert.ok(seen[1]?.ok === false);
  assert.match(seen[1].error, /memory:\/\/: EACCES/);
  assert.deepEqual(store.items, []);
});
