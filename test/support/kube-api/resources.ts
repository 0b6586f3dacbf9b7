/**
 * The resource types the test server serves: the built-in ones the operator uses and every
 * custom resource whose CustomResourceDefinition was created (removed again with the CRD).
 *
 * A resource type is addressed by (group, version, plural); objects of one type share one
 * key space whatever version they are read through (no conversion: versions of a CRD are
 * assumed to have the same schema).
 */
import type { Json, JsonObject, KubeObject } from './types.js';

/** One served resource type. */
export interface ResourceType {
  /** '' for the core group. */
  readonly group: string;
  readonly versions: readonly string[];
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Has a /status subresource: main writes keep status, status writes keep the rest. */
  readonly hasStatus: boolean;
  readonly shortNames: readonly string[];
  /** The CRD's OpenAPI schema of the storage version (defaults are applied from it). */
  readonly schema?: JsonObject;
  /** Defined by a CRD: stored and served with the keys of every object sorted (canonical.ts). */
  readonly custom?: boolean;
}

/** `group/plural`, the key of a type's object space. */
export function typeKey(t: Pick<ResourceType, 'group' | 'plural'>): string {
  return `${t.group}/${t.plural}`;
}

/** `v1` or `apps/v1` */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

function builtin(group: string, version: string, plural: string, kind: string, namespaced: boolean, hasStatus: boolean, shortNames: string[] = []): ResourceType {
  return { group, versions: [version], plural, singular: kind.toLowerCase(), kind, namespaced, hasStatus, shortNames };
}

/** The built-in resource types. */
export const BUILTIN_TYPES: readonly ResourceType[] = [
  builtin('', 'v1', 'namespaces', 'Namespace', false, true, ['ns']),
  builtin('', 'v1', 'pods', 'Pod', true, true, ['po']),
  builtin('', 'v1', 'services', 'Service', true, true, ['svc']),
  builtin('', 'v1', 'endpoints', 'Endpoints', true, false, ['ep']),
  builtin('', 'v1', 'events', 'Event', true, false, ['ev']),
  builtin('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, true, ['pvc']),
  builtin('', 'v1', 'configmaps', 'ConfigMap', true, false, ['cm']),
  builtin('', 'v1', 'secrets', 'Secret', true, false),
  builtin('', 'v1', 'serviceaccounts', 'ServiceAccount', true, false, ['sa']),
  builtin('apps', 'v1', 'statefulsets', 'StatefulSet', true, true, ['sts']),
  builtin('apps', 'v1', 'deployments', 'Deployment', true, true, ['deploy']),
  builtin('apps', 'v1', 'controllerrevisions', 'ControllerRevision', true, false),
  builtin('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true, true, ['pdb']),
  builtin('coordination.k8s.io', 'v1', 'leases', 'Lease', true, false),
  builtin('events.k8s.io', 'v1', 'events', 'Event', true, false, ['ev']),
  builtin('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false, true, ['crd', 'crds']),
];

function str(v: Json | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function obj(v: unknown): JsonObject | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : undefined;
}

/** The resource type a CustomResourceDefinition declares, or a reason it cannot be served. */
export function typeOfCrd(crd: KubeObject): ResourceType | { readonly error: string } {
  const spec = obj(crd.spec);
  const names = obj(spec?.names);
  const group = str(spec?.group);
  const plural = str(names?.plural);
  const kind = str(names?.kind);
  const versionsJson = Array.isArray(spec?.versions) ? spec.versions : [];
  const versions = versionsJson.map(obj).filter((v): v is JsonObject => v !== undefined && v.served !== false);
  if (group === undefined || plural === undefined || kind === undefined || versions.length === 0) {
    return { error: 'spec.group, spec.names.plural, spec.names.kind and one served version are required' };
  }
  const storage = versions.find((v) => v.storage === true) ?? versions[0];
  const schema = obj(obj(storage?.schema)?.openAPIV3Schema);
  return {
    group,
    versions: versions.map((v) => String(v.name)),
    plural,
    singular: str(names?.singular) ?? kind.toLowerCase(),
    kind,
    namespaced: spec?.scope !== 'Cluster',
    hasStatus: versions.some((v) => obj(obj(v.subresources)?.status) !== undefined),
    shortNames: Array.isArray(names?.shortNames) ? names.shortNames.map(String) : [],
    ...(schema !== undefined ? { schema } : {}),
    custom: true,
  };
}

/** Built-in types plus the custom types of the CRDs created so far. */
export class ResourceRegistry {
  private readonly custom = new Map<string, ResourceType>();

  /** Every served type. */
  all(): ResourceType[] {
    return [...BUILTIN_TYPES, ...this.custom.values()];
  }

  /** The type served at /apis/<group>/<version>/<plural> (or /api/v1/<plural>). */
  lookup(group: string, version: string, plural: string): ResourceType | undefined {
    return this.all().find((t) => t.group === group && t.plural === plural && t.versions.includes(version));
  }

  /** The type of an object's apiVersion and kind. */
  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    return this.all().find((t) => t.group === group && t.kind === kind && t.versions.includes(version));
  }

  /** Serves a CRD's type (replacing an earlier definition of the same CRD). */
  define(t: ResourceType): void {
    this.custom.set(typeKey(t), t);
  }

  /** Stops serving a CRD's type. */
  undefine(t: Pick<ResourceType, 'group' | 'plural'>): void {
    this.custom.delete(typeKey(t));
  }

  /** Group → versions served, in first-seen order. */
  groups(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const t of this.all()) {
      if (t.group === '') continue;
      const vs = out.get(t.group) ?? [];
      for (const v of t.versions) if (!vs.includes(v)) vs.push(v);
      out.set(t.group, vs);
    }
    return out;
  }
}
