/**
 * URL paths of the Kubernetes REST API, parsed: discovery documents and resource paths
 * `/api/v1/...` and `/apis/<group>/<version>/...`, with an optional namespace, name,
 * subresource and the legacy `/watch/` segment. Pure.
 */

/** A parsed request path. */
export type Route =
  | { readonly kind: 'root' }
  | { readonly kind: 'version' }
  | { readonly kind: 'core-versions' }
  | { readonly kind: 'groups' }
  | { readonly kind: 'group'; readonly group: string }
  | { readonly kind: 'resources'; readonly group: string; readonly version: string }
  | {
      readonly kind: 'resource';
      readonly group: string;
      readonly version: string;
      readonly namespace: string | undefined;
      readonly plural: string;
      readonly name: string | undefined;
      readonly subresource: string | undefined;
      /** The path had the legacy `/watch/` segment. */
      readonly watchPath: boolean;
    }
  | { readonly kind: 'unknown' };

function resourcePath(group: string, version: string, rest: string[]): Route {
  let watchPath = false;
  if (rest[0] === 'watch') {
    watchPath = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  // `namespaces/<ns>/<plural>...` is a namespaced path; `namespaces[/<name>]` is the Namespace resource.
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, subresource, ...extra] = rest;
  if (plural === undefined || extra.length > 0) return { kind: 'unknown' };
  return { kind: 'resource', group, version, namespace, plural, name, subresource, watchPath };
}

/** Parses a request path (without the query). */
export function parseRoute(pathname: string): Route {
  const parts = pathname.split('/').filter((p) => p !== '').map(decodeURIComponent);
  if (parts.length === 0) return { kind: 'root' };
  const [head, a, b, ...rest] = parts;
  if (head === 'version' && a === undefined) return { kind: 'version' };
  if (head === 'api') {
    if (a === undefined) return { kind: 'core-versions' };
    if (b === undefined) return { kind: 'resources', group: '', version: a };
    return resourcePath('', a, [b, ...rest]);
  }
  if (head === 'apis') {
    if (a === undefined) return { kind: 'groups' };
    if (b === undefined) return { kind: 'group', group: a };
    if (rest.length === 0) return { kind: 'resources', group: a, version: b };
    return resourcePath(a, b, rest);
  }
  return { kind: 'unknown' };
}
