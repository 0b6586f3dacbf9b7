/**
 * The engine and restores: a pass that may create a cluster from spec.restoreFrom asks the
 * RestoreInspector and hands its check to reconcile (not otherwise); a plan creating members from a
 * snapshot has its status (status.restore) written before the EnsureObjects, which reaches the
 * platform with the restore request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../../operator/controller/engine.js';
import type { Observed, Plan } from '../../../operator/controller/model.js';
import type { RestoreCheck } from '../../../operator/controller/restore/restore-check.js';
import type { KvstoreCluster } from '../../../operator/api/types.js';
import { portOk, type PortResult } from '../../../operator/controller/ports.js';
import type { RestoreRequest } from '../../../operator/controller/restore/restore-check.js';
import { cluster, emptyStatus, FakeAdmin, FakePlatform, FakeSnapshots, Recorder } from './fakes.js';

class EmptyPlatform extends FakePlatform {
  restores: (RestoreRequest | undefined)[] = [];
  override observe(): Promise<PortResult<import('../../../operator/controller/ports.js').PlatformView>> {
    return Promise.resolve(portOk({ objectsExist: false, templateVersion: '', replicas: 0, slots: [] }));
  }
  override ensureObjects(c: KvstoreCluster, version: string, replicas: number, restore?: RestoreRequest): Promise<PortResult<void>> {
    this.restores.push(restore);
    return super.ensureObjects(c, version, replicas);
  }
}

const CHECK: RestoreCheck = { ok: true, facts: { file: '/s/x.db', sha256: 'a'.repeat(64), size: 1, revision: 7 } };

void test('the restore check reaches reconcile; status.restore is written before the members are created from it', async () => {
  const rec = new Recorder();
  const platform = new EmptyPlatform();
  const seen: (Observed['restoreCheck'])[] = [];
  const order: string[] = [];
  const restoreStatus = { ...emptyStatus(), phase: 'Creating' as const, restore: { source: 'path:x.db', file: '/s/x.db', sha256: 'a'.repeat(64), revision: 7, startedAt: '2026-11-21T10:00:00Z' } };
  const reconcile = (_c: KvstoreCluster, o: Observed): Plan => {
    seen.push(o.restoreCheck);
    return { actions: [{ kind: 'EnsureObjects', version: '3.4.0', replicas: 3, restore: { file: '/s/x.db', sha256: 'a'.repeat(64) } }], status: restoreStatus, events: [] };
  };
  const write = rec.status.write;
  (rec.status as { write: typeof write }).write = (c, s) => (order.push(`status ${s.restore?.file ?? '-'}`), write(c, s));
  const ensure = platform.ensureObjects.bind(platform);
  platform.ensureObjects = (c, v, r, x) => (order.push('ensure'), ensure(c, v, r, x));
  let checks = 0;
  const engine = new Engine({
    platform, admin: new FakeAdmin(), snapshots: new FakeSnapshots(), status: rec.status, events: rec.eventSink, clock: { now: () => Date.parse('2026-11-21T10:00:00Z') },
    metrics: rec.metrics, logger: rec.logger, reconcile, observeTimeoutMs: 300,
    restore: { check: () => (checks++, Promise.resolve(CHECK)) },
  });
  const base = cluster();
  const withRestore = { ...base, spec: { ...base.spec, restoreFrom: { path: 'x.db' } } } as KvstoreCluster;
  await engine.pass(withRestore);
  assert.deepEqual(seen, [CHECK]);
  assert.deepEqual(order.slice(0, 2), ['status /s/x.db', 'ensure']);
  assert.deepEqual(platform.restores, [{ file: '/s/x.db', sha256: 'a'.repeat(64) }]);
  // Without spec.restoreFrom, or with a completed restore, nothing is asked.
  await engine.pass(base);
  await engine.pass({ ...withRestore, status: { ...restoreStatus, restore: { ...restoreStatus.restore, restoredAt: '2026-11-21T10:01:00Z' } } });
  assert.equal(checks, 1);
  assert.deepEqual(seen.slice(1), [undefined, undefined]);
});
