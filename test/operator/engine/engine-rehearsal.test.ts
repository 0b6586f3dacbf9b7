/**
 * The engine and the RehearsalPlatform port: StartRehearsal reaches the port with the snapshot's
 * path in the store, the next observation carries the scratch member with what it answers
 * (health, revision, key count), StopRehearsal removes it; without a port, a cluster in state
 * Rehearsing is observed as a failed rehearsal (fail safe).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KvstoreCluster } from '../../../operator/api/types.js';
import { Engine } from '../../../operator/controller/engine.js';
import type { Observed, Plan } from '../../../operator/controller/model.js';
import { portOk, type PortResult, type RehearsalPlatform, type ScratchView } from '../../../operator/controller/ports.js';
import { cluster, emptyStatus, FakeAdmin, FakePlatform, FakeSnapshots, Recorder } from './fakes.js';

class FakeRehearsal implements RehearsalPlatform {
  readonly calls: string[] = [];
  view: ScratchView | undefined;
  start(_c: KvstoreCluster, id: string, path: string, version: string): Promise<PortResult<void>> {
    this.calls.push(`start ${id} ${path} ${version}`);
    this.view = { id, phase: 'Running', clientURL: 'http://127.0.0.99:2379', expected: { revision: 100, keys: 42 }, logTail: 'ready\n' };
    return Promise.resolve(portOk(undefined));
  }
  observe(): Promise<PortResult<ScratchView | undefined>> {
    return Promise.resolve(portOk(this.view));
  }
  cleanup(): Promise<PortResult<void>> {
    this.calls.push('cleanup');
    this.view = undefined;
    return Promise.resolve(portOk(undefined));
  }
}

function engine(reconcile: (o: Observed) => Plan, rehearsal?: FakeRehearsal): Engine {
  const rec = new Recorder();
  return new Engine({
    platform: new FakePlatform(), admin: new FakeAdmin(), snapshots: new FakeSnapshots(), status: rec.status, events: rec.eventSink,
    clock: { now: () => Date.parse('2026-11-21T10:00:00Z') }, metrics: rec.metrics, logger: rec.logger, reconcile: (_c, o) => reconcile(o),
    observeTimeoutMs: 300, ...(rehearsal === undefined ? {} : { rehearsal }),
  });
}

const plan = (p: Partial<Plan>): Plan => ({ actions: [], status: emptyStatus(), events: [], ...p });

void test('StartRehearsal → the port (snapshot path in the store); the next observation carries what the scratch member answers; StopRehearsal → cleanup', async () => {
  const port = new FakeRehearsal();
  const seen: Observed[] = [];
  let step = 0;
  const e = engine((o) => {
    seen.push(o);
    step++;
    if (step === 1) return plan({ actions: [{ kind: 'StartRehearsal', id: 'r1', file: '/anywhere/demo-3.4.0-to-3.5.0-x.db', version: '3.5.0' }] });
    if (step === 2) return plan({ actions: [{ kind: 'StopRehearsal' }] });
    return plan({});
  }, port);
  await e.pass(cluster());
  assert.deepEqual(port.calls, ['start r1 /snap/demo-3.4.0-to-3.5.0-x.db 3.5.0']);
  assert.equal(seen[0]?.rehearsal, undefined);
  await e.pass(cluster());
  assert.deepEqual(seen[1]?.rehearsal, { id: 'r1', phase: 'Serving', expected: { revision: 100, keys: 42 }, logTail: 'ready\n', served: { healthy: true, revision: 100, keys: 42 } });
  assert.deepEqual(port.calls.at(-1), 'cleanup');
  await e.pass(cluster());
  assert.equal(seen[2]?.rehearsal, undefined);
});

void test('no rehearsal port: a cluster in state Rehearsing is observed as a failed rehearsal, never a pass', async () => {
  const seen: Observed[] = [];
  const e = engine((o) => (seen.push(o), plan({})));
  const status = { ...emptyStatus(), upgrade: { from: '3.4.0', to: '3.5.0', state: 'Rehearsing' as const, membersDone: [], startedAt: '2026-11-21T09:59:00Z', rehearsal: { id: 'r9', startedAt: '2026-11-21T09:59:00Z' } } };
  await e.pass(cluster(status));
  assert.equal(seen[0]?.rehearsal?.phase, 'Failed');
  assert.equal(seen[0]?.rehearsal?.id, 'r9');
  await e.pass(cluster());
  assert.equal(seen[1]?.rehearsal, undefined);
});
