// deploy/examples/restore: each example is a KvstoreCluster valid against the generated CRD's
// schema and the operator's own validation, with one restore source; a restoreFrom naming both
// (or neither) is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateCluster } from '../../operator/api/validate.js';
import { crdValidators } from './support/crd-schema.js';
import { kustomize } from './support/kustomize.js';
import { repoPath } from './support/repo.js';
import { parseObjects, type K8sObject } from './support/yaml-docs.js';

const CRD_FILE = 'deploy/crd/kvstore.io_kvstoreclusters.yaml';

void test('deploy/examples/restore: valid clusters, one restore source each', () => {
  const [crd] = parseObjects(readFileSync(repoPath(CRD_FILE), 'utf8'), CRD_FILE);
  assert.ok(crd !== undefined);
  const v = crdValidators(crd).find((x) => x.version === 'v1alpha1');
  assert.ok(v !== undefined);
  const { objects } = kustomize(repoPath('deploy/examples/restore'));
  assert.equal(objects.length, 2);
  for (const o of objects as K8sObject[]) {
    assert.equal(o.kind, 'KvstoreCluster');
    assert.ok(v.validate(o), `${o.metadata.name}: ${JSON.stringify(v.validate.errors)}`);
    assert.deepEqual(validateCluster(o), [], o.metadata.name);
    const from = (o.spec as { restoreFrom?: { path?: string; backup?: unknown } }).restoreFrom;
    assert.ok(from !== undefined && (from.path === undefined) !== (from.backup === undefined), o.metadata.name);
  }
  const both = { ...objects[0], spec: { version: '3.4.0', restoreFrom: { path: 'a.db', backup: { cluster: 'x' } } } };
  assert.deepEqual(validateCluster(both).map((e) => e.path), ['spec.restoreFrom']);
  const neither = { ...objects[0], spec: { version: '3.4.0', restoreFrom: {} } };
  assert.deepEqual(validateCluster(neither).map((e) => e.path), ['spec.restoreFrom']);
  const escape = { ...objects[0], spec: { version: '3.4.0', restoreFrom: { path: '../other-ns/x.db' } } };
  assert.deepEqual(validateCluster(escape).map((e) => e.path), ['spec.restoreFrom.path']);
  const badSha = { ...objects[0], spec: { version: '3.4.0', restoreFrom: { path: 'x.db', sha256: 'nothex' } } };
  assert.ok(validateCluster(badSha).some((e) => e.path.startsWith('spec.restoreFrom.sha256')));
});
