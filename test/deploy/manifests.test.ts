/**
 * deploy/: `kubectl kustomize deploy/` rendered offline (every listed file exists and parses),
 * every object valid against the Kubernetes schemas (unknown fields rejected, as `kubectl apply`
 * does), the exact least-privilege RBAC, the operator Deployment's contract, and the example
 * KvstoreCluster manifests valid against the generated CRD's schema. When a `kubectl` binary is
 * on the PATH the real `kubectl kustomize` must render the same objects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { validateCluster } from '../../operator/api/validate.js';
import { crdValidators } from './support/crd-schema.js';
import { validateBuiltin } from './support/k8s-validate.js';
import { kustomize, resourceList } from './support/kustomize.js';
import { assertOperatorInstall, only, validateAll } from './support/operator-install.js';
import { REPO_ROOT, repoPath } from './support/repo.js';
import { objectId, parseDocs, parseObjects, type K8sObject } from './support/yaml-docs.js';

const CRD_FILE = 'deploy/crd/kvstore.io_kvstoreclusters.yaml';

function loadCrd(): K8sObject {
  assert.ok(existsSync(repoPath(CRD_FILE)), `${CRD_FILE} is generated from operator/api (missing)`);
  const [crd, ...rest] = parseObjects(readFileSync(repoPath(CRD_FILE), 'utf8'), CRD_FILE);
  assert.equal(rest.length, 0, 'one CRD per file');
  assert.ok(crd !== undefined);
  return crd;
}

void test('deploy/kustomization.yaml: every resource exists and parses; the install is complete', () => {
  for (const entry of resourceList(repoPath('deploy'))) assert.ok(existsSync(repoPath(`deploy/${entry}`)), `${entry} exists`);
  const { objects } = kustomize(repoPath('deploy'));
  const kinds = objects.map((o) => o.kind).sort();
  assert.deepEqual(kinds, ['ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'Deployment', 'Namespace', 'PersistentVolumeClaim', 'Role', 'RoleBinding', 'Service', 'ServiceAccount']);
  assert.equal(only(objects, 'Namespace').metadata.name, 'kvstore-system');
  assert.equal(only(objects, 'CustomResourceDefinition').metadata.name, 'kvstoreclusters.kvstore.io');
});

void test('deploy/: every YAML file under deploy/ (outside docker/) parses, and is listed by a kustomization', () => {
  const listed = new Set(['deploy', ...EXAMPLE_DIRS].flatMap((d) => kustomize(repoPath(d)).sources));
  const walk = (dir: string): string[] =>
    readdirSync(repoPath(dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : e.name.endsWith('.yaml') ? [`${dir}/${e.name}`] : []));
  for (const file of walk('deploy').filter((f) => !f.startsWith('deploy/local/'))) {
    const parsed = parseDocs(readFileSync(repoPath(file), 'utf8'), file);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
    if (!file.endsWith('/kustomization.yaml')) assert.ok(listed.has(repoPath(file)), `${file} is in a kustomization`);
  }
});

void test('deploy/: every object is valid against the Kubernetes schemas (unknown fields are errors)', async () => {
  const { objects } = kustomize(repoPath('deploy'));
  const crd = loadCrd();
  assert.deepEqual(await validateAll(objects, crdValidators(crd)), []);
});

void test('deploy/: least-privilege RBAC and the operator Deployment contract', () => {
  const { objects } = kustomize(repoPath('deploy'));
  assertOperatorInstall(objects.filter((o) => o.kind !== 'CustomResourceDefinition'), {
    namespace: 'kvstore-system',
    replicas: 1,
    leaderElection: true,
    snapshots: { kind: 'pvc', claim: 'kvstore-operator-snapshots', inInstall: true },
    image: 'kvstore/kvstore-operator:0.1.0',
  });
});

void test('the CRD: apiextensions v1 schema, kvstore.io/v1alpha1 KvstoreCluster, namespaced, status subresource', async () => {
  const crd = loadCrd();
  const r = await validateBuiltin(crd);
  assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
  const spec = crd.spec as { group: string; scope: string; names: { kind: string; plural: string }; versions: { name: string; served: boolean; storage: boolean; subresources?: { status?: unknown } }[] };
  assert.equal(spec.group, 'kvstore.io');
  assert.equal(spec.scope, 'Namespaced');
  assert.equal(spec.names.kind, 'KvstoreCluster');
  assert.equal(spec.names.plural, 'kvstoreclusters');
  const v = spec.versions.find((x) => x.name === 'v1alpha1');
  assert.ok(v?.served === true && v.storage, 'v1alpha1 served and stored');
  assert.ok(v.subresources?.status !== undefined, 'status subresource');
});

/** Every kustomization of examples (the secured ones apart: they need cert-manager / a Secret first). */
const EXAMPLE_DIRS = ['deploy/examples', 'deploy/examples/tls', 'deploy/examples/auth', 'deploy/examples/restore'] as const;

const EXAMPLES = [
  { file: 'cluster-3.4.yaml', size: 3, version: '3.4.0', enableV2: undefined },
  { file: 'cluster-3.5.yaml', size: 5, version: '3.5.0', enableV2: undefined },
  { file: 'cluster-v2.yaml', size: 3, version: '3.4.0', enableV2: true },
  { file: 'cluster-backup.yaml', size: 3, version: '3.5.0', enableV2: undefined },
] as const;

void test('deploy/examples: the kustomization lists every example; each is a KvstoreCluster valid against the CRD schema', () => {
  const { objects, sources } = kustomize(repoPath('deploy/examples'));
  assert.deepEqual(sources.map((s) => s.slice(repoPath('deploy/examples/').length)).sort(), EXAMPLES.map((e) => e.file).sort());
  const validators = crdValidators(loadCrd());
  for (const example of EXAMPLES) {
    const o = objects[sources.indexOf(repoPath(`deploy/examples/${example.file}`))] as K8sObject;
    assert.equal(o.apiVersion, 'kvstore.io/v1alpha1');
    assert.equal(o.kind, 'KvstoreCluster');
    assert.equal(o.metadata.namespace, undefined, `${example.file}: applied to the namespace the user picks`);
    const spec = o.spec as { size: number; version: string; options?: { enableV2?: boolean } };
    assert.equal(spec.size, example.size);
    assert.equal(spec.version, example.version);
    assert.equal(spec.options?.enableV2, example.enableV2);
    const v = validators.find((x) => x.version === 'v1alpha1');
    assert.ok(v !== undefined);
    assert.ok(v.validate(o), `${example.file}: ${JSON.stringify(v.validate.errors)}`);
    assert.deepEqual(validateCluster(o), [], `${example.file}: the operator's own validation accepts it`);
  }
});

const validCluster = (o: K8sObject, what: string): void => {
  const v = crdValidators(loadCrd()).find((x) => x.version === 'v1alpha1');
  assert.ok(v !== undefined);
  assert.ok(v.validate(o), `${what}: ${JSON.stringify(v.validate.errors)}`);
  assert.deepEqual(validateCluster(o), [], `${what}: the operator's own validation accepts it`);
};

void test('deploy/examples/tls: cert-manager issues every Secret spec.tls names, with the names and usages the members and the operator need', () => {
  const { objects } = kustomize(repoPath('deploy/examples/tls'));
  assert.deepEqual(objects.map((o) => o.kind).sort(), ['Certificate', 'Certificate', 'Certificate', 'Issuer', 'Issuer', 'KvstoreCluster']);
  for (const o of objects.filter((x) => x.kind !== 'KvstoreCluster')) assert.equal(o.apiVersion, 'cert-manager.io/v1');
  const cluster = only(objects, 'KvstoreCluster');
  validCluster(cluster, 'tls/cluster-tls.yaml');
  const name = cluster.metadata.name;
  type Cert = { secretName: string; usages?: string[]; dnsNames?: string[]; isCA?: boolean; issuerRef: { name: string; kind: string } };
  const certs = objects.filter((o) => o.kind === 'Certificate').map((o) => o.spec as Cert);
  const issuers = new Set(objects.filter((o) => o.kind === 'Issuer').map((o) => o.metadata.name));
  for (const c of certs) assert.ok(issuers.has(c.issuerRef.name), `issuer ${c.issuerRef.name} exists`);
  const tls = (cluster.spec as { tls: { client: { secretName: string }; peer: { secretName: string }; operator: { secretName: string } } }).tls;
  const ca = certs.find((c) => c.isCA === true);
  for (const part of [tls.client, tls.peer]) {
    const c = certs.find((x) => x.secretName === part.secretName);
    assert.ok(c !== undefined, `a Certificate writes ${part.secretName}`);
    assert.notEqual(c.issuerRef.name, 'kvstore-selfsigned', 'signed by the CA, not self-signed');
    assert.ok(c.usages?.includes('server auth') && c.usages.includes('client auth'), 'members serve with it and dial peers with it');
    assert.ok(c.dnsNames?.includes(`*.${name}-peer.kvstore-demo.svc`), 'every member DNS name (the URLs the members advertise)');
  }
  const op = certs.find((x) => x.secretName === tls.operator.secretName);
  assert.ok(op !== undefined && op.usages?.includes('client auth') && !op.usages.includes('server auth'));
  assert.equal(op.issuerRef.name, certs.find((x) => x.secretName === tls.client.secretName)?.issuerRef.name, 'the same CA the members trust');
  assert.ok(ca !== undefined);
});

void test('deploy/examples/auth: the Secret spec.auth names, with username and password', async () => {
  const { objects } = kustomize(repoPath('deploy/examples/auth'));
  assert.deepEqual(objects.map((o) => o.kind).sort(), ['KvstoreCluster', 'Secret']);
  const cluster = only(objects, 'KvstoreCluster');
  validCluster(cluster, 'auth/cluster-auth.yaml');
  const secret = only(objects, 'Secret');
  const r = await validateBuiltin(secret);
  assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
  assert.equal((cluster.spec as { auth: { secretName: string } }).auth.secretName, secret.metadata.name);
  assert.deepEqual(Object.keys(secret.stringData as object).sort(), ['password', 'username']);
});

void test('the CRD schema rejects what the operator must never see (checks the validator is not vacuous)', () => {
  const validate = crdValidators(loadCrd()).find((x) => x.version === 'v1alpha1')?.validate;
  assert.ok(validate !== undefined);
  const base = parseObjects(readFileSync(repoPath('deploy/examples/cluster-3.4.yaml'), 'utf8'), 'cluster-3.4.yaml')[0] as K8sObject;
  const withSpec = (patch: Record<string, unknown>): K8sObject => ({ ...base, spec: { ...(base.spec as object), ...patch } });
  assert.ok(validate(base));
  assert.ok(!validate(withSpec({ size: 4 })), 'size 4 (even) is refused');
  assert.ok(!validate(withSpec({ sise: 3 })), 'an unknown field is refused');
  assert.ok(!validate(withSpec({ options: { enableV2: 'yes' } })), 'enableV2 must be a boolean');
});

void test('kubectl kustomize (when available) renders the same objects', (t) => {
  const probe = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 20_000 });
  if (probe.status !== 0) {
    t.skip('no kubectl on the PATH');
    return;
  }
  for (const dir of ['deploy', ...EXAMPLE_DIRS]) {
    const out = spawnSync('kubectl', ['kustomize', dir], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(out.status, 0, out.stderr);
    const real = parseObjects(out.stdout, `kubectl kustomize ${dir}`);
    const ours = kustomize(repoPath(dir)).objects;
    const key = (o: K8sObject): string => objectId(o);
    assert.deepEqual(real.map(key).sort(), ours.map(key).sort(), `${dir}: same objects`);
    for (const o of ours) assert.deepEqual(real.find((r) => key(r) === key(o)), o, `${dir}: ${key(o)} identical`);
  }
});
