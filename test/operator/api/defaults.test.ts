import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDefaults } from '../../../operator/api/defaults.js';
import type { KvstoreClusterInput } from '../../../operator/api/types.js';
import { cluster, fixture } from './support.js';

const input = (spec: Record<string, unknown>) => cluster(spec) as unknown as KvstoreClusterInput;

void test('an empty spec (version only) gets every default', () => {
  assert.deepEqual(withDefaults(input({ version: '3.4.0' })).spec, {
    version: '3.4.0',
    size: 3,
    image: 'kvstore/kvstore',
    storage: { size: '1Gi' },
    options: {},
    upgrade: { v2WaitSeconds: 120, v2ThresholdBytes: 50_000_000, memberHealthTimeoutSeconds: 300, snapshot: { volume: 'snapshots', keep: 3 }, rehearsal: true, rehearsalTimeoutSeconds: 300 },
    paused: false,
  });
});

void test('nested defaults fill the fields left out of a partly written object', () => {
  const spec = withDefaults(input({ version: '3.5.0', storage: { storageClassName: 'fast' }, upgrade: { v2WaitSeconds: 5, snapshot: { keep: 1 } } })).spec;
  assert.deepEqual(spec.storage, { size: '1Gi', storageClassName: 'fast' });
  assert.deepEqual(spec.upgrade, { v2WaitSeconds: 5, v2ThresholdBytes: 50_000_000, memberHealthTimeoutSeconds: 300, snapshot: { volume: 'snapshots', keep: 1 }, rehearsal: true, rehearsalTimeoutSeconds: 300 });
});

void test('values given are kept, false and 0 included', () => {
  const spec = withDefaults(input({ version: '3.5.0', size: 1, paused: true, image: 'x/y', upgrade: { v2WaitSeconds: 0, v2ThresholdBytes: 0 } })).spec;
  assert.equal(spec.size, 1);
  assert.equal(spec.paused, true);
  assert.equal(spec.image, 'x/y');
  assert.equal(spec.upgrade.v2WaitSeconds, 0);
  assert.equal(spec.upgrade.v2ThresholdBytes, 0);
});

void test('int-or-string fields written as integers become their text', () => {
  const spec = withDefaults(input({ version: '3.5.0', storage: { size: 1073741824 }, options: { autoCompactionRetention: 1 } })).spec;
  assert.equal(spec.storage.size, '1073741824');
  assert.equal(spec.options.autoCompactionRetention, '1');
});

void test('the input is not modified; metadata and status pass through', () => {
  const doc = fixture('with-status');
  const before = structuredClone(doc);
  const out = withDefaults(doc as unknown as KvstoreClusterInput);
  assert.deepEqual(doc, before);
  assert.deepEqual(out.metadata, doc['metadata']);
  assert.deepEqual(out.status, doc['status']);
});

void test('defaulting twice changes nothing', () => {
  const once = withDefaults(fixture('full') as unknown as KvstoreClusterInput);
  assert.deepEqual(withDefaults(once), once);
});

void test('a defaulted example has the full (static) shape of types.ts', async () => {
  const { Value } = await import('typebox/value');
  const { KvstoreClusterSpecSchema } = await import('../../../operator/api/schema.js');
  for (const name of ['minimal', 'full', 'v2', 'with-status']) {
    const spec = withDefaults(fixture(name) as unknown as KvstoreClusterInput).spec;
    assert.ok(Value.Check(KvstoreClusterSpecSchema, spec), name);
  }
});
