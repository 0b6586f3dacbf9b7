/**
 * Discovery documents (APIVersions, APIGroupList, APIGroup, APIResourceList, version info)
 * built from the resource registry, enough for client-node's KubernetesObjectApi and kubectl-like
 * clients. Pure.
 */
import type { ResourceRegistry, ResourceType } from './resources.js';
import type { JsonObject } from './types.js';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function coreVersions(): JsonObject {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }] };
}

function groupDoc(group: string, versions: readonly string[]): JsonObject {
  const vs = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: vs, preferredVersion: vs[0] ?? null };
}

export function groupList(registry: ResourceRegistry): JsonObject {
  const groups = [...registry.groups()].map(([g, vs]) => groupDoc(g, vs));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function groupOf(registry: ResourceRegistry, group: string): JsonObject | undefined {
  const vs = registry.groups().get(group);
  return vs === undefined ? undefined : { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(group, vs) };
}

function entries(t: ResourceType): JsonObject[] {
  const main: JsonObject = {
    name: t.plural, singularName: t.singular, namespaced: t.namespaced, kind: t.kind, verbs: VERBS,
    ...(t.shortNames.length > 0 ? { shortNames: [...t.shortNames] } : {}),
  };
  const out = [main];
  if (t.hasStatus) out.push({ name: `${t.plural}/status`, singularName: '', namespaced: t.namespaced, kind: t.kind, verbs: ['get', 'patch', 'update'] });
  return out;
}

export function resourceList(registry: ResourceRegistry, group: string, version: string): JsonObject | undefined {
  const types = registry.all().filter((t) => t.group === group && t.versions.includes(version));
  if (types.length === 0) return undefined;
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group === '' ? version : `${group}/${version}`, resources: types.flatMap(entries) };
}

export function versionInfo(): JsonObject {
  return {
    major: '1', minor: '30', gitVersion: 'v1.30.0-kvstore-test', gitCommit: '', gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z', goVersion: 'n/a', compiler: 'n/a', platform: 'linux/amd64',
  };
}
