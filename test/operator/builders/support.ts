// Clusters for the builder tables: defaulted KvstoreClusters with a uid (as read from the API
// server), frozen so a builder that modifies its input fails.
import { withDefaults } from '../../../operator/api/defaults.js';
import type { KvstoreCluster, KvstoreClusterSpecInput } from '../../../operator/api/types.js';

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

export const UID = '6f1c2a7e-1b2c-4d5e-8f90-0a1b2c3d4e5f';

export function makeCluster(spec: Partial<KvstoreClusterSpecInput> = {}, meta: { name?: string; namespace?: string | null; uid?: string | null } = {}): KvstoreCluster {
  const uid = meta.uid === null ? undefined : (meta.uid ?? UID);
  return deepFreeze(
    withDefaults({
      apiVersion: 'kvstore.io/v1alpha1',
      kind: 'KvstoreCluster',
      metadata: { name: meta.name ?? 'demo', ...(meta.namespace !== null ? { namespace: meta.namespace ?? 'prod' } : {}), ...(uid !== undefined ? { uid } : {}) },
      spec: { version: '3.4.27', ...spec },
    }),
  );
}
