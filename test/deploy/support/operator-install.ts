/**
 * What an operator install (deploy/ rendered by kustomize, or the Helm chart rendered) must hold,
 * as assertions shared by both: every object valid against its schema, the exact least-privilege
 * RBAC, bindings and references that resolve, and the operator Deployment's contract (flags,
 * probes and metrics on 8080, leader election, resources, non-root read-only container that the
 * "restricted" Pod Security profile admits, the snapshot volume mounted at --snapshot-dir).
 */
import assert from 'node:assert/strict';
import { isBuiltin, validateBuiltin } from './k8s-validate.js';
import { validateCustom, type CrdVersion } from './crd-schema.js';
import { restrictedViolations } from './pod-security.js';
import { objectId, type K8sObject } from './yaml-docs.js';

type Obj = Record<string, unknown>;

/** The ClusterRole's rules as `group/resource:verb` triples. */
export const CLUSTER_ROLE_GRANTS: readonly string[] = [
  ...triples(['kvstore.io'], ['kvstoreclusters', 'kvstoreclusters/status', 'kvstoreclusters/finalizers'], ['get', 'list', 'watch', 'update', 'patch']),
  ...triples(['apps'], ['statefulsets'], ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete']),
  ...triples([''], ['services', 'persistentvolumeclaims'], ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete']),
  ...triples(['policy'], ['poddisruptionbudgets'], ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete']),
  // Member pods deleted one at a time; upgrade rehearsals' scratch pods created, deleted, their logs read.
  ...triples([''], ['pods'], ['create', 'get', 'list', 'watch', 'delete']),
  ...triples([''], ['pods/log'], ['get']),
  ...triples([''], ['events'], ['create', 'patch']),
  // The TLS and credential Secrets a cluster's spec.tls / spec.auth name: read only.
  ...triples([''], ['secrets'], ['get']),
].sort();

/** The leader-election Role's rules. */
export const LEASE_ROLE_GRANTS: readonly string[] = triples(['coordination.k8s.io'], ['leases'], ['get', 'create', 'update']).sort();

function triples(groups: readonly string[], resources: readonly string[], verbs: readonly string[]): string[] {
  return groups.flatMap((g) => resources.flatMap((r) => verbs.map((v) => `${g}/${r}:${v}`)));
}

/** Flattens RBAC rules into sorted `group/resource:verb` triples; wildcards and resourceNames are reported as such. */
export function grantsOf(role: K8sObject): string[] {
  const out: string[] = [];
  for (const rule of (role.rules ?? []) as Obj[]) {
    assert.equal(rule.nonResourceURLs, undefined, `${objectId(role)}: no non-resource URLs`);
    for (const g of (rule.apiGroups ?? []) as string[]) for (const r of (rule.resources ?? []) as string[]) for (const v of (rule.verbs ?? []) as string[]) out.push(`${g}/${r}:${v}`);
  }
  return out.sort();
}

/** Validates every object: built-in kinds with kubernetes-models, custom kinds with the CRD validators or `extra` schemas by kind. */
export async function validateAll(objects: readonly K8sObject[], crds: readonly CrdVersion[], extra: Readonly<Record<string, (o: K8sObject) => string[]>> = {}): Promise<string[]> {
  const errors: string[] = [];
  for (const o of objects) {
    const id = objectId(o);
    const custom = extra[`${o.apiVersion}/${o.kind}`];
    if (custom !== undefined) {
      errors.push(...custom(o).map((e) => `${id}: ${e}`));
    } else if (await isBuiltin(o.apiVersion, o.kind)) {
      const r = await validateBuiltin(o);
      if (!r.ok) errors.push(...r.errors.map((e) => `${id}: ${e}`));
    } else {
      const r = validateCustom(o, crds);
      if (!r.ok) errors.push(...r.errors.map((e) => `${id}: ${e}`));
    }
  }
  return errors;
}

export function only(objects: readonly K8sObject[], kind: string): K8sObject {
  const found = objects.filter((o) => o.kind === kind);
  assert.equal(found.length, 1, `exactly one ${kind} (found ${found.map(objectId).join(', ') || 'none'})`);
  return found[0] as K8sObject;
}

export interface InstallExpectations {
  readonly namespace: string;
  readonly replicas: number;
  readonly leaderElection: boolean;
  /** The snapshot volume: a PVC of the install, an existing claim, or an emptyDir. */
  readonly snapshots: { readonly kind: 'pvc'; readonly claim: string; readonly inInstall: boolean } | { readonly kind: 'emptyDir' };
  readonly image: string;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/**
 * Names and labels the API server would refuse: object names are DNS-1123 subdomains (at most
 * 253 characters), Service names DNS-1035 labels (at most 63), label values at most 63 characters
 * of the allowed alphabet. (kubernetes-models checks types, not these formats.)
 */
export function nameProblems(objects: readonly K8sObject[]): string[] {
  const out: string[] = [];
  const labelSets = (o: K8sObject): Record<string, unknown>[] => {
    const sets = [o.metadata.labels as Record<string, unknown> | undefined];
    const template = (o.spec as Obj | undefined)?.template as Obj | undefined;
    sets.push((template?.metadata as Obj | undefined)?.labels as Record<string, unknown> | undefined);
    return sets.filter((x): x is Record<string, unknown> => x !== undefined);
  };
  for (const o of objects) {
    const name = o.metadata.name;
    if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) out.push(`${objectId(o)}: name is not a DNS-1123 subdomain`);
    if (o.kind === 'Service' && (name.length > 63 || !DNS_LABEL.test(name))) out.push(`${objectId(o)}: a Service name must be a DNS-1035 label of at most 63 characters`);
    for (const labels of labelSets(o)) {
      for (const [k, v] of Object.entries(labels)) {
        if (typeof v !== 'string' || v.length > 63 || !LABEL_VALUE.test(v)) out.push(`${objectId(o)}: label ${k}=${String(v)} is not a valid label value`);
      }
    }
  }
  return out;
}

/** Asserts the operator install contract on a rendered set of objects. */
export function assertOperatorInstall(objects: readonly K8sObject[], want: InstallExpectations): void {
  const byKind = (k: string): K8sObject[] => objects.filter((o) => o.kind === k);
  assert.deepEqual(nameProblems(objects), [], 'names and labels the API server accepts');
  for (const o of objects) {
    const clusterScoped = ['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition'].includes(o.kind);
    if (clusterScoped) assert.equal(o.metadata.namespace, undefined, `${objectId(o)} is cluster-scoped`);
    else assert.equal(o.metadata.namespace, want.namespace, `${objectId(o)} in ${want.namespace}`);
  }

  const sa = only(objects, 'ServiceAccount');
  const clusterRole = only(objects, 'ClusterRole');
  assert.deepEqual(grantsOf(clusterRole), CLUSTER_ROLE_GRANTS, 'ClusterRole: exactly the grants the operator needs');
  const roles = byKind('Role');
  if (want.leaderElection) {
    assert.equal(roles.length, 1, 'one Role (leader election)');
    assert.deepEqual(grantsOf(roles[0] as K8sObject), LEASE_ROLE_GRANTS, 'Role: leases get/create/update only');
  } else {
    assert.equal(roles.length, 0, 'no lease Role without leader election');
  }
  for (const b of [...byKind('ClusterRoleBinding'), ...byKind('RoleBinding')]) {
    const ref = b.roleRef as Obj;
    const target = objects.find((o) => o.kind === ref.kind && o.metadata.name === ref.name);
    assert.ok(target !== undefined, `${objectId(b)}: roleRef ${String(ref.kind)}/${String(ref.name)} is in the install`);
    assert.equal(b.kind === 'ClusterRoleBinding' ? 'ClusterRole' : 'Role', ref.kind);
    assert.deepEqual(b.subjects, [{ kind: 'ServiceAccount', name: sa.metadata.name, namespace: want.namespace }], `${objectId(b)} binds the operator's ServiceAccount only`);
  }
  assert.equal(byKind('ClusterRoleBinding').length, 1);
  assert.equal(byKind('RoleBinding').length, roles.length);

  const dep = only(objects, 'Deployment');
  const spec = dep.spec as Obj;
  assert.equal(spec.replicas, want.replicas);
  const template = spec.template as Obj;
  const podLabels = (template.metadata as Obj).labels as Record<string, string>;
  const selector = (spec.selector as Obj).matchLabels as Record<string, string>;
  for (const [k, v] of Object.entries(selector)) assert.equal(podLabels[k], v, `selector ${k} matches the pod labels`);
  const pod = template.spec as Obj;
  assert.equal(pod.serviceAccountName, sa.metadata.name);
  assert.equal(pod.enableServiceLinks, false, 'no service-link variables in the environment');
  assert.deepEqual(restrictedViolations(pod), [], 'admitted by the restricted Pod Security profile');
  const containers = pod.containers as Obj[];
  assert.equal(containers.length, 1);
  const c = containers[0] as Obj;
  assert.equal(c.image, want.image);
  const args = c.args as string[];
  assert.equal(args[0], 'run');
  assert.equal(args.includes('--leader-elect'), want.leaderElection, '--leader-elect');
  assert.equal(args[args.indexOf('--metrics-bind-address') + 1], ':8080');
  const snapshotDir = args[args.indexOf('--snapshot-dir') + 1];
  assert.equal(snapshotDir, '/var/lib/kvstore-operator/snapshots');
  if (want.replicas > 1) assert.ok(want.leaderElection, 'more than one replica needs leader election');

  const ports = c.ports as Obj[];
  const metricsPort = ports.find((p) => p.name === 'metrics');
  assert.equal(metricsPort?.containerPort, 8080);
  for (const [probe, path] of [['livenessProbe', '/healthz'], ['readinessProbe', '/readyz']] as const) {
    const get = (c[probe] as Obj | undefined)?.httpGet as Obj | undefined;
    assert.equal(get?.path, path, `${probe} GET ${path}`);
    assert.ok(get.port === 'metrics' || get.port === 8080, `${probe} on port 8080`);
  }
  const env = (c.env as Obj[]).map((e) => e.name);
  assert.ok(env.includes('POD_NAMESPACE'), 'the operator knows its namespace (lease)');

  const res = c.resources as { requests?: Obj; limits?: Obj };
  assert.ok(res.requests?.cpu !== undefined && res.requests.memory !== undefined, 'requests cpu and memory');
  assert.ok(res.limits?.memory !== undefined, 'a memory limit');
  const sc = c.securityContext as Obj;
  assert.equal(sc.readOnlyRootFilesystem, true);
  assert.equal(sc.allowPrivilegeEscalation, false);

  const mounts = c.volumeMounts as Obj[];
  const snapMount = mounts.find((m) => m.mountPath === snapshotDir);
  assert.ok(snapMount !== undefined, 'the snapshot volume is mounted at --snapshot-dir');
  assert.ok(mounts.some((m) => m.mountPath === '/tmp'), 'a writable /tmp (read-only root)');
  const volume = (pod.volumes as Obj[]).find((v) => v.name === snapMount.name) as Obj;
  if (want.snapshots.kind === 'pvc') {
    const claim = (volume.persistentVolumeClaim as Obj | undefined)?.claimName;
    assert.equal(claim, want.snapshots.claim);
    const pvcs = byKind('PersistentVolumeClaim');
    if (want.snapshots.inInstall) {
      assert.deepEqual(pvcs.map((p) => p.metadata.name), [claim], 'the snapshot PVC is part of the install');
      const modes = ((pvcs[0] as K8sObject).spec as Obj).accessModes as string[];
      if (modes.includes('ReadWriteOnce')) assert.equal((spec.strategy as Obj | undefined)?.type, 'Recreate', 'a ReadWriteOnce volume needs the Recreate strategy');
    } else {
      assert.equal(pvcs.length, 0, 'an existing claim: no PVC created');
    }
  } else {
    assert.ok(volume.emptyDir !== undefined, 'snapshots on an emptyDir');
    assert.equal(byKind('PersistentVolumeClaim').length, 0);
  }

  for (const svc of byKind('Service')) {
    const sel = (svc.spec as Obj).selector as Record<string, string>;
    for (const [k, v] of Object.entries(sel)) assert.equal(podLabels[k], v, `${objectId(svc)} selects the operator pod`);
    for (const p of (svc.spec as Obj).ports as Obj[]) assert.ok(p.targetPort === 'metrics' || p.targetPort === 8080, `${objectId(svc)} targets the metrics port`);
  }
}
