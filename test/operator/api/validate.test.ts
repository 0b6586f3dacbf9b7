import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCluster } from '../../../operator/api/parse.js';
import { validateCluster, validateClusterUpdate, type ValidationError } from '../../../operator/api/validate.js';
import { withDefaults } from '../../../operator/api/defaults.js';
import type { KvstoreClusterInput } from '../../../operator/api/types.js';
import { cluster, fixture, FIXTURES } from './support.js';

for (const name of FIXTURES) {
  void test(`fixture ${name}.yaml is valid`, () => {
    assert.deepEqual(validateCluster(fixture(name)), []);
  });
}

/** [case, spec (merged over version 3.4.0), path, message fragment] — one rule each. */
const SPEC_CASES: readonly (readonly [string, Record<string, unknown>, string, string])[] = [
  ['size not 1/3/5/7', { size: 4 }, 'spec.size', 'must be one of: 1, 3, 5, 7'],
  ['size not an integer', { size: 'three' }, 'spec.size', 'must be one of: 1, 3, 5, 7'],
  ['version missing', { version: undefined }, 'spec.version', 'is required'],
  ['version outside 3.2–3.5', { version: '3.6.0' }, 'spec.version', '3.<minor>.<patch> with minor 2 to 5'],
  ['version without patch', { version: '3.4' }, 'spec.version', '3.<minor>.<patch>'],
  ['empty image', { image: '' }, 'spec.image', 'must not be empty'],
  ['image with a tag', { image: 'registry:5000/team/kvstore:1.0' }, 'spec.image', 'without tag or digest (the tag is the version), e.g. registry:5000/team/kvstore'],
  ['image with a digest', { image: 'kvstore/kvstore@sha256:abc' }, 'spec.image', 'e.g. kvstore/kvstore'],
  ['storage size not a quantity', { storage: { size: '1 GB' } }, 'spec.storage.size', 'Kubernetes quantity such as 1Gi'],
  ['storage size neither integer nor string', { storage: { size: true } }, 'spec.storage.size', 'an integer or a string'],
  ['storage size zero', { storage: { size: '0Gi' } }, 'spec.storage.size', 'more than zero'],
  ['empty storage class', { storage: { storageClassName: '' } }, 'spec.storage.storageClassName', 'must not be empty'],
  ['resources not an object', { resources: 'big' }, 'spec.resources', 'must be an object'],
  ['affinity not an object', { affinity: [] }, 'spec.affinity', 'must be an object'],
  ['toleration not an object', { tolerations: ['x'] }, 'spec.tolerations[0]', 'must be an object'],
  ['node selector value not a string', { nodeSelector: { zone: 1 } }, 'spec.nodeSelector.zone', 'must be a string'],
  ['unknown compaction mode', { options: { autoCompactionMode: 'daily' } }, 'spec.options.autoCompactionMode', 'must be one of: periodic, revision'],
  ['retention not hours or a duration', { options: { autoCompactionRetention: '1d' } }, 'spec.options.autoCompactionRetention', 'hours (1) or a duration'],
  ['retention a duration in revision mode', { options: { autoCompactionMode: 'revision', autoCompactionRetention: '5m' } }, 'spec.options.autoCompactionRetention', 'number of revisions'],
  ['negative quota', { options: { quotaBackendBytes: -1 } }, 'spec.options.quotaBackendBytes', 'at least 0'],
  ['zero max request bytes', { options: { maxRequestBytes: 0 } }, 'spec.options.maxRequestBytes', 'at least 1'],
  ['enableV2 not a boolean', { options: { enableV2: 'yes' } }, 'spec.options.enableV2', 'true or false'],
  ['unknown log level', { options: { logLevel: 'trace' } }, 'spec.options.logLevel', 'must be one of: debug, info, warn, error'],
  ['negative v2 wait', { upgrade: { v2WaitSeconds: -1 } }, 'spec.upgrade.v2WaitSeconds', 'at least 0'],
  ['fractional v2 wait', { upgrade: { v2WaitSeconds: 1.5 } }, 'spec.upgrade.v2WaitSeconds', 'an integer'],
  ['negative v2 threshold', { upgrade: { v2ThresholdBytes: -5 } }, 'spec.upgrade.v2ThresholdBytes', 'at least 0'],
  ['zero member health timeout', { upgrade: { memberHealthTimeoutSeconds: 0 } }, 'spec.upgrade.memberHealthTimeoutSeconds', 'at least 1'],
  ['keep zero snapshots', { upgrade: { snapshot: { keep: 0 } } }, 'spec.upgrade.snapshot.keep', 'at least 1'],
  ['snapshot volume not a PVC name', { upgrade: { snapshot: { volume: 'My_Snaps' } } }, 'spec.upgrade.snapshot.volume', 'PersistentVolumeClaim name'],
  ['paused not a boolean', { paused: 'no' }, 'spec.paused', 'true or false'],
  ['unknown field (a typo)', { verison: '3.5.0' }, 'spec.verison', 'not a known field (known: size, version,'],
  ['unknown nested field', { upgrade: { v2Wait: 1 } }, 'spec.upgrade.v2Wait', 'not a known field (known: v2WaitSeconds,'],
  ['enableV2 on 3.2', { version: '3.2.32', options: { enableV2: true } }, 'spec.options.enableV2', 'needs version 3.3 or later'],
  ['compaction mode on 3.2', { version: '3.2.32', options: { autoCompactionMode: 'periodic' } }, 'spec.options.autoCompactionMode', 'needs version 3.3 or later'],
  ['max request bytes on 3.2', { version: '3.2.32', options: { maxRequestBytes: 1024 } }, 'spec.options.maxRequestBytes', 'needs version 3.3 or later'],
  ['retention duration on 3.2', { version: '3.2.32', options: { autoCompactionRetention: '30m' } }, 'spec.options.autoCompactionRetention', 'hours (an integer) before 3.3'],
  ['log level warn before 3.4', { version: '3.3.27', options: { logLevel: 'warn' } }, 'spec.options.logLevel', 'debug or info before 3.4'],
];

function has(errors: readonly ValidationError[], path: string, fragment: string): boolean {
  return errors.some((e) => e.path === path && e.message.includes(fragment));
}

for (const [name, patch, path, fragment] of SPEC_CASES) {
  void test(`invalid: ${name} → ${path}`, () => {
    const spec: Record<string, unknown> = { version: '3.4.0', ...patch };
    if (spec['version'] === undefined) delete spec['version'];
    const errors = validateCluster(cluster(spec));
    assert.ok(has(errors, path, fragment), `want ${path}: …${fragment}…, got ${JSON.stringify(errors)}`);
  });
}

void test('invalid: a local snapshot directory is fine in local mode only', () => {
  const doc = cluster({ version: '3.4.0', upgrade: { snapshot: { volume: 'backups/snaps' } } });
  assert.deepEqual(validateCluster(doc, { target: 'local' }), []);
  assert.ok(has(validateCluster(doc), 'spec.upgrade.snapshot.volume', 'PersistentVolumeClaim name'));
});

const DOC_CASES: readonly (readonly [string, unknown, string, string])[] = [
  ['not an object', 'hello', '', 'must be a KvstoreCluster object'],
  ['wrong apiVersion', { ...cluster({ version: '3.4.0' }), apiVersion: 'kvstore.io/v1' }, 'apiVersion', 'must be kvstore.io/v1alpha1'],
  ['wrong kind', { ...cluster({ version: '3.4.0' }), kind: 'EtcdCluster' }, 'kind', 'must be KvstoreCluster'],
  ['no name', { ...cluster({ version: '3.4.0' }), metadata: {} }, 'metadata.name', 'is required'],
  ['name not a DNS label', cluster({ version: '3.4.0' }, 'My_Cluster'), 'metadata.name', 'lower-case letters'],
  ['name too long', cluster({ version: '3.4.0' }, `a${'b'.repeat(52)}`), 'metadata.name', 'at most 52 characters'],
  ['no spec', { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'a' } }, 'spec', 'is required'],
  ['spec not an object', { ...cluster({}), spec: 'big' }, 'spec', 'must be an object'],
  ['unknown top-level field', { ...cluster({ version: '3.4.0' }), sepc: {} }, 'sepc', 'not a known field'],
  ['status with an unknown phase', { ...fixture('with-status'), status: { ...(fixture('with-status')['status'] as object), phase: 'Happy' } }, 'status.phase', 'must be one of: Pending,'],
  ['status missing fields', { ...cluster({ version: '3.4.0' }), status: { phase: 'Running' } }, 'status.members', 'is required'],
];

for (const [name, doc, path, fragment] of DOC_CASES) {
  void test(`invalid document: ${name} → ${path || '(document)'}`, () => {
    const errors = validateCluster(doc);
    assert.ok(has(errors, path, fragment), `want ${path}: …${fragment}…, got ${JSON.stringify(errors)}`);
  });
}

void test('every problem is reported, not only the first', () => {
  const errors = validateCluster(cluster({ version: '3.9.0', size: 2, storage: { size: 'lots' }, upgrade: { snapshot: { keep: 0 } }, options: { logLevel: 'loud' }, tolerations: [1, 2] }));
  const paths = errors.map((e) => e.path).sort();
  assert.deepEqual(paths, ['spec.options.logLevel', 'spec.size', 'spec.storage.size', 'spec.tolerations[0]', 'spec.tolerations[1]', 'spec.upgrade.snapshot.keep', 'spec.version']);
});

void test('parseCluster: a valid manifest comes back defaulted; an invalid one as its errors', () => {
  const ok = parseCluster(fixture('minimal'));
  assert.equal(ok.kind, 'Valid');
  if (ok.kind === 'Valid') assert.equal(ok.cluster.spec.size, 3);
  const bad = parseCluster(cluster({ version: '3.4.0', size: 2 }));
  assert.deepEqual(bad, { kind: 'Invalid', errors: [{ path: 'spec.size', message: 'must be one of: 1, 3, 5, 7' }] });
});

void test('update: spec.storage may not change; everything else may', () => {
  const previous = withDefaults(cluster({ version: '3.4.0' }) as unknown as KvstoreClusterInput);
  assert.deepEqual(validateClusterUpdate(previous, cluster({ version: '3.5.0', size: 5, storage: { size: '1Gi' } })), []);
  assert.deepEqual(validateClusterUpdate(previous, cluster({ version: '3.4.0', storage: { size: '2Gi' } })), [{ path: 'spec.storage', message: 'is immutable: the member volume claims were created from it' }]);
  assert.deepEqual(validateClusterUpdate(previous, cluster({ version: '3.4.0', storage: { storageClassName: 'fast' } })).map((e) => e.path), ['spec.storage']);
  assert.deepEqual(validateClusterUpdate(previous, cluster({ version: '3.4.0', size: 4 })).map((e) => e.path), ['spec.size']);
});
