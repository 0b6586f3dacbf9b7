/**
 * spec.restoreFrom checks the schema leaves to code (the CRD says the first with a CEL rule):
 * exactly one of `path` and `backup`; on Kubernetes a `path` stays inside the cluster's own
 * directory of the snapshot volume (no `..`). Pure.
 */
import type { KvstoreClusterSpec } from './types.js';
import type { ValidationError } from './validation-error.js';

export function restoreErrors(spec: KvstoreClusterSpec, target: 'kubernetes' | 'local'): ValidationError[] {
  const r = spec.restoreFrom;
  if (r === undefined) return [];
  if ((r.path === undefined) === (r.backup === undefined)) {
    return [{ path: 'spec.restoreFrom', message: 'names exactly one of path (a snapshot file) or backup (another cluster\'s backup)' }];
  }
  if (target === 'kubernetes' && r.path !== undefined && r.path.split('/').includes('..')) {
    return [{ path: 'spec.restoreFrom.path', message: 'must not contain ".." (it names a file in this namespace\'s directory of the operator\'s snapshot volume)' }];
  }
  return [];
}
