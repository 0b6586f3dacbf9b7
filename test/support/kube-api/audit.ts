/**
 * The audit record of one resource request, as the API server's audit log names it: the verb
 * (get, list, watch, create, update, patch, delete, deletecollection), the resource (plural)
 * and subresource, namespace and name. `startKubeApi({ audit })` hands every resource request
 * to the hook when it arrives (discovery requests are not audited). Pure.
 */
import type { Route } from './routes.js';

export type AuditVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface AuditRecord {
  readonly verb: AuditVerb;
  readonly group: string;
  /** Plural resource, e.g. `kvstoreclusters`. */
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

/** Whether the verb changes something (create, update, patch, delete, deletecollection). */
export function isWrite(verb: AuditVerb): boolean {
  return verb !== 'get' && verb !== 'list' && verb !== 'watch';
}

/** The audit record of a request on a resource path, or undefined for a method the API has no verb for. */
export function auditRecord(method: string, route: Extract<Route, { kind: 'resource' }>, watch: boolean): AuditRecord | undefined {
  const named = route.name !== undefined;
  const verbs: Record<string, AuditVerb | undefined> = {
    GET: watch ? 'watch' : named ? 'get' : 'list',
    POST: 'create',
    PUT: 'update',
    PATCH: 'patch',
    DELETE: named ? 'delete' : 'deletecollection',
  };
  const verb = verbs[method];
  if (verb === undefined) return undefined;
  return {
    verb,
    group: route.group,
    resource: route.plural,
    ...(route.subresource === undefined ? {} : { subresource: route.subresource }),
    ...(route.namespace === undefined ? {} : { namespace: route.namespace }),
    ...(route.name === undefined ? {} : { name: route.name }),
  };
}
