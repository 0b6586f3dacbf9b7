/**
 * charts/kvstore-operator rendered by a real Go-template engine with sprig (Helm's engine; see
 * test/support/chart-render) with default and non-default values: every object valid against the
 * Kubernetes schemas (KvstoreCluster against the CRD, ServiceMonitor against its essentials), the
 * install contract shared with deploy/ (exact RBAC, probes, leader election, snapshot volume,
 * restricted pod security), values validated by values.schema.json as Helm does, the CRD in crds/
 * identical to the generated one, and the operator container identical to deploy/'s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { Ajv } from 'ajv';
import { validateCluster } from '../../operator/api/validate.js';
import { renderChart, type RenderOptions } from '../support/chart-render/render.js';
import { crdValidators } from '../deploy/support/crd-schema.js';
import { assertOperatorInstall, nameProblems, only, validateAll, type InstallExpectations } from '../deploy/support/operator-install.js';
import { readRepoFile, repoPath } from '../deploy/support/repo.js';
import { parseDocs, parseObjects, type K8sObject } from '../deploy/support/yaml-docs.js';

const CHART = repoPath('charts/kvstore-operator');
const CRD_FILE = 'deploy/crd/kvstore.io_kvstoreclusters.yaml';
const crd = parseObjects(readRepoFile(CRD_FILE), CRD_FILE)[0] as K8sObject;
const validators = crdValidators(crd);
const pkg = JSON.parse(readRepoFile('package.json')) as { version: string };

type Obj = Record<string, unknown>;

/** The essentials of a prometheus-operator ServiceMonitor (its CRD is not ours to ship). */
const serviceMonitorSchema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    spec: {
      type: 'object',
      additionalProperties: false,
      required: ['selector', 'endpoints'],
      properties: {
        selector: { type: 'object', required: ['matchLabels'], properties: { matchLabels: { type: 'object', additionalProperties: { type: 'string' } } } },
        namespaceSelector: { type: 'object', properties: { matchNames: { type: 'array', items: { type: 'string' } } } },
        endpoints: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['port'],
            properties: { port: { type: 'string' }, path: { type: 'string' }, interval: { type: 'string', pattern: '^([0-9]+(ms|s|m|h))+$' }, scrapeTimeout: { type: 'string', pattern: '^([0-9]+(ms|s|m|h))+$' } },
          },
        },
      },
    },
  },
};
const ajv = new Ajv({ allErrors: true, strict: false });
const checkServiceMonitor = ajv.compile(serviceMonitorSchema);
const valuesSchema = ajv.compile(JSON.parse(readFileSync(repoPath('charts/kvstore-operator/values.schema.json'), 'utf8')) as object);

const EXTRA = {
  'monitoring.coreos.com/v1/ServiceMonitor': (o: K8sObject): string[] => (checkServiceMonitor(o) ? [] : (checkServiceMonitor.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`)),
};

interface Rendered {
  readonly objects: K8sObject[];
  readonly notes: string;
  readonly values: Obj;
}

/** Renders and parses; fails the test on a template error or a document that does not parse. */
function render(opts: RenderOptions = {}): Rendered {
  const r = renderChart(CHART, opts);
  assert.ok(r.ok, r.ok ? '' : r.error);
  const objects: K8sObject[] = [];
  for (const [name, text] of Object.entries(r.manifests)) objects.push(...parseObjects(text, name));
  return { objects, notes: r.notes, values: r.values as Obj };
}

function renderError(opts: RenderOptions): string {
  const r = renderChart(CHART, opts);
  assert.ok(!r.ok, 'the render must fail');
  return r.error;
}

/** Validates the coalesced values as Helm does before rendering. */
function assertValuesValid(values: Obj): void {
  assert.ok(valuesSchema(values), JSON.stringify(valuesSchema.errors));
}

const NON_DEFAULT: Obj = {
  image: { repository: 'registry.example.com/kvstore/kvstore-operator', tag: '0.1.0-rc1', pullPolicy: 'Always' },
  imagePullSecrets: [{ name: 'regcred' }],
  replicaCount: 2,
  logLevel: 'debug',
  extraArgs: ['--namespace=all'],
  podLabels: { team: 'platform' },
  podAnnotations: { 'example.com/owner': 'platform' },
  priorityClassName: 'system-cluster-critical',
  resources: { requests: { cpu: '200m', memory: '256Mi' }, limits: { cpu: '1', memory: '1Gi' } },
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'control', effect: 'NoSchedule' }],
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64', 'arm64'] }] }] } } },
  serviceAccount: { annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::123456789012:role/kvstore' } },
  metrics: { service: { annotations: { 'prometheus.io/scrape': 'true' } } },
  serviceMonitor: { enabled: true, interval: '15s', labels: { release: 'prometheus' } },
  snapshots: { persistence: { size: '50Gi', storageClass: 'fast-ssd' } },
  cluster: {
    enabled: true,
    name: 'main',
    size: 5,
    version: '3.5.0',
    storage: { size: '8Gi', storageClassName: 'fast-ssd' },
    resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '2Gi' } },
    tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    options: { quotaBackendBytes: 8589934592, maxRequestBytes: 1572864, autoCompactionMode: 'periodic', autoCompactionRetention: '1h', enableV2: true, logLevel: 'warn' },
    upgrade: { v2WaitSeconds: 30, v2ThresholdBytes: 50000000, memberHealthTimeoutSeconds: 600, snapshot: { volume: 'snapshots', keep: 5 } },
    tls: { client: { secretName: 'main-member-tls' }, peer: { secretName: 'main-member-tls' }, operator: { secretName: 'main-operator-tls' } },
    auth: { secretName: 'main-root' },
    backup: { schedule: '0 */6 * * *', destination: { s3: { bucket: 'kv-backups', prefix: 'main', endpoint: 'http://minio.storage.svc:9000', credentialsSecret: 'main-s3' } }, retention: { maxCount: 14, maxAgeHours: 168 } },
  },
};

void test('Chart.yaml: apiVersion v2, appVersion = the package version; crds/ holds exactly the generated CRD', () => {
  const parsed = parseDocs(readRepoFile('charts/kvstore-operator/Chart.yaml'), 'Chart.yaml');
  assert.ok(parsed.ok && parsed.docs.length === 1, 'Chart.yaml is one YAML document');
  const chart = parsed.docs[0] as Obj;
  assert.equal(chart.apiVersion, 'v2');
  assert.equal(chart.name, 'kvstore-operator');
  assert.match(String(chart.version), /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
  assert.equal(chart.appVersion, '0.1.0');
  assert.equal(chart.appVersion, pkg.version);
  assert.deepEqual(readdirSync(repoPath('charts/kvstore-operator/crds')), ['kvstore.io_kvstoreclusters.yaml']);
  assert.equal(readRepoFile('charts/kvstore-operator/crds/kvstore.io_kvstoreclusters.yaml'), readRepoFile(CRD_FILE), `crds/ is stale: cp ${CRD_FILE} charts/kvstore-operator/crds/`);
});

void test('default values: valid against values.schema.json; the install renders and every object is valid', async () => {
  const r = render();
  assertValuesValid(r.values);
  assert.deepEqual(r.objects.map((o) => o.kind).sort(), ['ClusterRole', 'ClusterRoleBinding', 'Deployment', 'PersistentVolumeClaim', 'Role', 'RoleBinding', 'Service', 'ServiceAccount']);
  assert.deepEqual(await validateAll(r.objects, validators, EXTRA), []);
  assertOperatorInstall(r.objects, {
    namespace: 'kvstore-system',
    replicas: 1,
    leaderElection: true,
    snapshots: { kind: 'pvc', claim: 'kvstore-operator-snapshots', inInstall: true },
    image: 'kvstore/kvstore-operator:0.1.0',
  });
  assert.match(r.notes, /installed in namespace kvstore-system/);
  assert.ok(!r.notes.includes('<no value>'));
});

void test('default values, release named like the plain manifests: the same RBAC rules and operator container as deploy/', () => {
  const chart = render({ releaseName: 'kvstore-operator', namespace: 'kvstore-system' }).objects;
  const plain = ['rbac/cluster-role.yaml', 'rbac/leader-election-role.yaml', 'operator/deployment.yaml', 'operator/snapshots-pvc.yaml'].flatMap((f) => parseObjects(readRepoFile(`deploy/${f}`), f));
  for (const kind of ['ClusterRole', 'Role']) assert.deepEqual(only(chart, kind).rules, only(plain, kind).rules, `${kind} rules`);
  const podOf = (o: K8sObject): Obj => ((o.spec as Obj).template as Obj).spec as Obj;
  const chartPod = podOf(only(chart, 'Deployment'));
  const plainPod = podOf(only(plain, 'Deployment'));
  assert.deepEqual(chartPod.containers, plainPod.containers, 'operator container');
  assert.deepEqual(chartPod.volumes, plainPod.volumes, 'volumes');
  assert.deepEqual(chartPod.securityContext, plainPod.securityContext, 'pod security context');
  assert.equal(chartPod.enableServiceLinks, plainPod.enableServiceLinks);
  assert.deepEqual((only(chart, 'Deployment').spec as Obj).strategy, (only(plain, 'Deployment').spec as Obj).strategy);
  assert.deepEqual(only(chart, 'PersistentVolumeClaim').spec, only(plain, 'PersistentVolumeClaim').spec);
});

void test('non-default values: valid, every object valid (KvstoreCluster against the CRD), values reach the objects', async () => {
  const r = render({ releaseName: 'ops', namespace: 'platform', values: [NON_DEFAULT], apiVersions: ['monitoring.coreos.com/v1'] });
  assertValuesValid(r.values);
  assert.deepEqual(r.objects.map((o) => o.kind).sort(), ['ClusterRole', 'ClusterRoleBinding', 'Deployment', 'KvstoreCluster', 'PersistentVolumeClaim', 'Role', 'RoleBinding', 'Service', 'ServiceAccount', 'ServiceMonitor']);
  assert.deepEqual(await validateAll(r.objects, validators, EXTRA), []);
  const expect: InstallExpectations = {
    namespace: 'platform',
    replicas: 2,
    leaderElection: true,
    snapshots: { kind: 'pvc', claim: 'ops-kvstore-operator-snapshots', inInstall: true },
    image: 'registry.example.com/kvstore/kvstore-operator:0.1.0-rc1',
  };
  assertOperatorInstall(r.objects, expect);

  const dep = only(r.objects, 'Deployment');
  const pod = ((dep.spec as Obj).template as Obj).spec as Obj;
  const container = (pod.containers as Obj[])[0] as Obj;
  assert.equal(container.imagePullPolicy, 'Always');
  assert.deepEqual((container.args as string[]).slice(-3), ['--log-level', 'debug', '--namespace=all']);
  assert.deepEqual(container.resources, NON_DEFAULT.resources);
  assert.deepEqual(pod.nodeSelector, NON_DEFAULT.nodeSelector);
  assert.deepEqual(pod.tolerations, NON_DEFAULT.tolerations);
  assert.deepEqual(pod.affinity, NON_DEFAULT.affinity);
  assert.deepEqual(pod.imagePullSecrets, [{ name: 'regcred' }]);
  assert.equal(pod.priorityClassName, 'system-cluster-critical');
  assert.equal((((dep.spec as Obj).template as Obj).metadata as { labels: Obj }).labels.team, 'platform');
  assert.equal((only(r.objects, 'PersistentVolumeClaim').spec as Obj).storageClassName, 'fast-ssd');
  assert.equal(((only(r.objects, 'PersistentVolumeClaim').spec as Obj).resources as { requests: Obj }).requests.storage, '50Gi');

  const sm = only(r.objects, 'ServiceMonitor');
  const svc = only(r.objects, 'Service');
  assert.equal((sm.metadata.labels as Obj).release, 'prometheus');
  const smSpec = sm.spec as { selector: { matchLabels: Record<string, string> }; endpoints: { port: string; interval: string }[] };
  for (const [k, v] of Object.entries(smSpec.selector.matchLabels)) assert.equal((svc.metadata.labels as Obj)[k], v, 'the ServiceMonitor selects the metrics Service');
  assert.ok(((svc.spec as Obj).ports as Obj[]).some((p) => p.name === smSpec.endpoints[0]?.port));
  assert.equal(smSpec.endpoints[0]?.interval, '15s');

  const cluster = only(r.objects, 'KvstoreCluster');
  assert.equal(cluster.metadata.name, 'main');
  assert.equal(cluster.metadata.namespace, 'platform');
  const spec = cluster.spec as Obj;
  const want = NON_DEFAULT.cluster as Obj;
  assert.equal(spec.size, 5);
  assert.equal(spec.version, '3.5.0');
  assert.deepEqual(spec.options, want.options, 'options (large integers stay integers)');
  assert.deepEqual(spec.upgrade, want.upgrade);
  assert.deepEqual(spec.storage, want.storage);
  assert.deepEqual(spec.tolerations, want.tolerations);
  assert.deepEqual(spec.tls, want.tls);
  assert.deepEqual(spec.auth, want.auth);
  assert.deepEqual(spec.backup, want.backup);
  assert.deepEqual(validateCluster(cluster), [], "the operator's own validation accepts it");
  assert.match(r.notes, /KvstoreCluster "main" \(5 members, version 3\.5\.0\)/);
});

void test('snapshots on an emptyDir, or on an existing claim; storageClass "-" asks for no class', () => {
  const emptyDir = render({ values: [{ snapshots: { persistence: { enabled: false } } }] });
  assertValuesValid(emptyDir.values);
  assertOperatorInstall(emptyDir.objects, { namespace: 'kvstore-system', replicas: 1, leaderElection: true, snapshots: { kind: 'emptyDir' }, image: 'kvstore/kvstore-operator:0.1.0' });
  assert.equal((only(emptyDir.objects, 'Deployment').spec as Obj).strategy, undefined, 'no Recreate needed without a ReadWriteOnce volume');
  assert.match(emptyDir.notes, /lost on restart/);

  const existing = render({ values: [{ snapshots: { persistence: { existingClaim: 'backups' } } }] });
  assertOperatorInstall(existing.objects, { namespace: 'kvstore-system', replicas: 1, leaderElection: true, snapshots: { kind: 'pvc', claim: 'backups', inInstall: false }, image: 'kvstore/kvstore-operator:0.1.0' });

  const noClass = render({ values: [{ snapshots: { persistence: { storageClass: '-' } } }] });
  assert.equal((only(noClass.objects, 'PersistentVolumeClaim').spec as Obj).storageClassName, '');
  const defaultClass = render();
  assert.ok(!('storageClassName' in (only(defaultClass.objects, 'PersistentVolumeClaim').spec as Obj)), 'the default StorageClass when none is given');
});

void test('without leader election: no lease Role, no --leader-elect; more than one replica is refused', async () => {
  const r = render({ values: [{ leaderElection: { enabled: false } }] });
  assertOperatorInstall(r.objects, { namespace: 'kvstore-system', replicas: 1, leaderElection: false, snapshots: { kind: 'pvc', claim: 'kvstore-operator-snapshots', inInstall: true }, image: 'kvstore/kvstore-operator:0.1.0' });
  assert.deepEqual(await validateAll(r.objects, validators, EXTRA), []);
  assert.match(renderError({ values: [{ leaderElection: { enabled: false }, replicaCount: 2 }] }), /replicaCount > 1 needs leaderElection/);
});

void test('rbac.create and serviceAccount.create off: no RBAC objects, the named ServiceAccount is used; a name is required', () => {
  const r = render({ values: [{ rbac: { create: false }, serviceAccount: { create: false, name: 'platform-operator' } }] });
  assert.deepEqual(r.objects.map((o) => o.kind).sort(), ['Deployment', 'PersistentVolumeClaim', 'Service']);
  assert.equal((((only(r.objects, 'Deployment').spec as Obj).template as Obj).spec as Obj).serviceAccountName, 'platform-operator');
  assert.match(renderError({ values: [{ serviceAccount: { create: false } }] }), /serviceAccount\.name is required/);
});

void test('metrics Service off: no Service; a ServiceMonitor without it is refused', () => {
  const r = render({ values: [{ metrics: { service: { enabled: false } } }] });
  assert.ok(!r.objects.some((o) => o.kind === 'Service'));
  assert.ok(!r.notes.includes('Metrics:'));
  assert.match(renderError({ values: [{ metrics: { service: { enabled: false } }, serviceMonitor: { enabled: true } }] }), /serviceMonitor\.enabled needs metrics\.service\.enabled/);
});

void test('values.schema.json refuses typos and values the operator cannot run', () => {
  const base = render().values;
  const merged = (over: Obj): Obj => ({ ...base, ...over });
  assertValuesValid(base);
  const bad: Obj[] = [
    { replicas: 2 },
    { image: { repository: 'x', pullPolicy: 'Sometimes' } },
    { replicaCount: 'two' },
    { logLevel: 'verbose' },
    { cluster: { ...(base.cluster as Obj), size: 4 } },
    { cluster: { ...(base.cluster as Obj), version: '3.6.0' } },
    { cluster: { ...(base.cluster as Obj), options: { enableV2: 'yes' } } },
    { cluster: { ...(base.cluster as Obj), upgrade: { v2WaitSecond: 10 } } },
    { cluster: { ...(base.cluster as Obj), image: 'kvstore/kvstore:3.5.0' } },
    { cluster: { ...(base.cluster as Obj), image: 'kvstore/kvstore@sha256:abc' } },
    { cluster: { ...(base.cluster as Obj), tls: { client: {} } } },
    { cluster: { ...(base.cluster as Obj), tls: { server: { secretName: 'x' } } } },
    { cluster: { ...(base.cluster as Obj), auth: { secretName: 'Root_Secret' } } },
    { serviceMonitor: { enabled: true, interval: 'often' } },
    { snapshots: { persistence: { size: 'lots' } } },
    { cluster: { ...(base.cluster as Obj), backup: { schedule: '@daily', destination: { path: '/elsewhere' } } } },
    { cluster: { ...(base.cluster as Obj), backup: { schedule: '@daily', retention: { maxCount: 0 } } } },
    { cluster: { ...(base.cluster as Obj), backup: { schedule: '@daily', destination: { s3: { bucket: 'bucket', endpoint: 'minio:9000' } } } } },
  ];
  for (const over of bad) assert.ok(!valuesSchema(merged(over)), `refused: ${JSON.stringify(over)}`);
  assert.ok(valuesSchema(merged({ cluster: { ...(base.cluster as Obj), image: 'registry.example.com:5000/team/kvstore' } })), 'a registry with a port is fine');
});

void test('the chart KvstoreCluster with minimal values is valid against the CRD (defaults left to the API server)', async () => {
  const r = render({ values: [{ cluster: { enabled: true, name: 'kv', size: 3, version: '3.4.0' } }] });
  const cluster = only(r.objects, 'KvstoreCluster');
  assert.deepEqual(cluster.spec, { size: 3, version: '3.4.0', image: 'kvstore/kvstore', storage: { size: '1Gi' }, paused: false });
  assert.deepEqual(await validateAll([cluster], validators), []);
  assert.deepEqual(validateCluster(cluster), []);
});

void test('the longest release name Helm allows (53 characters): every name and label stays valid', async () => {
  const releaseName = 'a-very-long-release-name-for-the-kvstore-operator-x01';
  assert.equal(releaseName.length, 53);
  const r = render({ releaseName, values: [{ cluster: { enabled: true, name: 'kv', version: '3.4.0' }, serviceMonitor: { enabled: true } }] });
  assert.deepEqual(nameProblems(r.objects), []);
  assert.deepEqual(await validateAll(r.objects, validators, EXTRA), []);
  const fullname = only(r.objects, 'Deployment').metadata.name;
  assert.equal(fullname, releaseName, 'a release name containing the chart name is the full name');
  const other = render({ releaseName: 'r'.repeat(53) });
  assert.deepEqual(nameProblems(other.objects), []);
  assert.ok(only(other.objects, 'Deployment').metadata.name.length <= 63);
});
