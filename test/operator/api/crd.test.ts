import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition';
import { parse } from 'yaml';
import { clusterCrd, clusterOpenApiSchema } from '../../../operator/api/crd.js';
import { CRD_FILE, crdYaml } from '../../../operator/api/crd-yaml.js';
import { validateCluster } from '../../../operator/api/validate.js';
import { cluster, crdValidator, fixture, FIXTURES, repoRoot } from './support.js';

void test(`${CRD_FILE} is what \`npm run crd:gen\` writes from the schema`, () => {
  const committed = readFileSync(join(repoRoot(), CRD_FILE), 'utf8');
  assert.equal(committed, crdYaml(), `${CRD_FILE} is stale: run \`npm run build && npm run crd:gen\``);
  assert.deepEqual(parse(committed), clusterCrd());
});

void test('the CRD names, scope, version, status subresource and printer columns', () => {
  const crd = clusterCrd();
  assert.equal(crd.metadata?.name, 'kvstoreclusters.kvstore.io');
  assert.equal(crd.spec.group, 'kvstore.io');
  assert.equal(crd.spec.scope, 'Namespaced');
  assert.deepEqual(crd.spec.names, { kind: 'KvstoreCluster', listKind: 'KvstoreClusterList', plural: 'kvstoreclusters', singular: 'kvstorecluster', shortNames: ['kvs'] });
  assert.equal(crd.spec.versions.length, 1);
  const v = crd.spec.versions[0]!;
  assert.equal(v.name, 'v1alpha1');
  assert.equal(v.served, true);
  assert.equal(v.storage, true);
  assert.deepEqual(v.subresources, { status: {} });
  assert.deepEqual(
    v.additionalPrinterColumns?.map((c) => [c.name, c.type, c.jsonPath]),
    [
      ['Desired', 'string', '.spec.version'],
      ['Cluster', 'string', '.status.clusterVersion'],
      ['Ready', 'string', '.status.readyMembers'],
      ['Phase', 'string', '.status.phase'],
      ['Age', 'date', '.metadata.creationTimestamp'],
    ],
  );
});

void test('the CRD is a valid apiextensions.k8s.io/v1 object (kubernetes-models schema)', () => {
  assert.doesNotThrow(() => new CustomResourceDefinition(clusterCrd()).validate());
});

/** JSONSchemaProps fields a structural schema may use (no $ref, $schema, id, const, patternProperties, …). */
const ALLOWED = new Set([
  'type', 'format', 'description', 'default', 'enum', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'multipleOf', 'required', 'properties',
  'items', 'additionalProperties', 'anyOf', 'allOf', 'oneOf', 'not', 'nullable', 'title', 'example',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-int-or-string', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type', 'x-kubernetes-embedded-resource', 'x-kubernetes-validations',
]);

type Node = Record<string, unknown>;
function walk(node: Node, path: string, visit: (node: Node, path: string) => void): void {
  visit(node, path);
  for (const [k, v] of Object.entries((node['properties'] as Record<string, Node> | undefined) ?? {})) walk(v, `${path}.${k}`, visit);
  if (typeof node['items'] === 'object') walk(node['items'] as Node, `${path}[]`, visit);
  if (typeof node['additionalProperties'] === 'object') walk(node['additionalProperties'] as Node, `${path}{}`, visit);
}

void test('the schema is structural: typed nodes, allowed keywords only, no properties beside additionalProperties', () => {
  walk(clusterOpenApiSchema() as Node, '', (node, path) => {
    for (const k of Object.keys(node)) assert.ok(ALLOWED.has(k), `${path}: keyword ${k} is not allowed in a CRD schema`);
    if (node['x-kubernetes-int-or-string'] === true) {
      assert.equal(node['type'], undefined, `${path}: int-or-string has no type`);
      assert.deepEqual(node['anyOf'], [{ type: 'integer' }, { type: 'string' }], path);
    } else {
      assert.equal(typeof node['type'], 'string', `${path}: every node has a type`);
    }
    assert.ok(!(node['properties'] && node['additionalProperties'] !== undefined), `${path}: properties and additionalProperties`);
    if (node['properties']) assert.equal(node['type'], 'object', path);
    if (node['type'] === 'object' && !node['properties'] && !node['additionalProperties']) {
      assert.ok(node['x-kubernetes-preserve-unknown-fields'] === true || path === '.metadata', `${path}: an empty object schema must preserve unknown fields`);
    }
    for (const name of (node['required'] as string[] | undefined) ?? []) {
      const prop = (node['properties'] as Record<string, Node>)[name];
      assert.ok(prop && !('default' in prop), `${path}.${name}: required fields have no default`);
    }
  });
});

void test('spec.storage is immutable (CEL transition rule)', () => {
  const storage = clusterOpenApiSchema().properties?.['spec']?.properties?.['storage'];
  assert.deepEqual(storage?.['x-kubernetes-validations'], [{ rule: 'self == oldSelf', message: 'is immutable: the member volume claims were created from it' }]);
});

void test('the pass-through fields keep what they are given', () => {
  const spec = clusterOpenApiSchema().properties?.['spec']?.properties ?? {};
  assert.equal(spec['resources']?.['x-kubernetes-preserve-unknown-fields'], true);
  assert.equal(spec['affinity']?.['x-kubernetes-preserve-unknown-fields'], true);
  assert.equal(spec['tolerations']?.items && (spec['tolerations'].items as Node)['x-kubernetes-preserve-unknown-fields'], true);
});

for (const name of FIXTURES) {
  void test(`example ${name}.yaml validates against the CRD schema (ajv)`, () => {
    const validate = crdValidator();
    assert.ok(validate(fixture(name)), JSON.stringify(validate.errors));
  });
}

void test('the CRD schema (ajv) and validateCluster reject the same structural mistakes', () => {
  const validate = crdValidator();
  const bad = [
    { size: 4 }, { version: '3.1.0' }, { storage: { size: '1 GB' } }, { options: { logLevel: 'trace' } },
    { upgrade: { snapshot: { keep: 0 } } }, { tolerations: ['x'] }, { nodeSelector: { a: 1 } }, { paused: 'no' },
  ];
  for (const patch of bad) {
    const doc = cluster({ version: '3.4.0', ...patch });
    assert.equal(validate(doc), false, `ajv accepts ${JSON.stringify(patch)}`);
    assert.notDeepEqual(validateCluster(doc), [], `validateCluster accepts ${JSON.stringify(patch)}`);
  }
});

void test('the finalizer name', async () => {
  const { SNAPSHOTS_FINALIZER } = await import('../../../operator/api/types.js');
  assert.equal(SNAPSHOTS_FINALIZER, 'kvstore.io/snapshots');
});

void test('scripts/crd-gen.mjs writes the same file from a build', async () => {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { dirname, resolve } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const dist = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const dir = mkdtempSync(join(tmpdir(), 'kvstore-crd-'));
  try {
    const out = join(dir, 'crd.yaml');
    execFileSync(process.execPath, [join(repoRoot(), 'scripts', 'crd-gen.mjs'), dist, out], { stdio: 'pipe' });
    assert.equal(readFileSync(out, 'utf8'), readFileSync(join(repoRoot(), CRD_FILE), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
