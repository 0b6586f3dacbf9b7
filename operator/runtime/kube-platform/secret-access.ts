/**
 * The AccessLoader on Kubernetes: the Secrets spec.tls and spec.auth name, read from the
 * cluster's namespace through the API on every pass (no cache: a rotated Secret counts at once).
 * Needs `get` on Secrets (the operator's ClusterRole grants it).
 */
import type { KvstoreCluster } from '../../api/types.js';
import { accessFromSecrets, type SecretData } from '../../controller/access/secret-data.js';
import { namespaceOf } from '../../controller/builders/names.js';
import { portFail, portOk, type AccessLoader } from '../../controller/ports.js';
import type { KubeClient, KubeObject } from '../kube/types.js';

export function kubeAccessLoader(kube: KubeClient): AccessLoader {
  return (cluster: KvstoreCluster) =>
    accessFromSecrets(cluster, async (name) => {
      const got = await kube.get<KubeObject & SecretData>({ apiVersion: 'v1', kind: 'Secret', namespace: namespaceOf(cluster), name });
      if (got.ok) return portOk(got.value);
      return got.error.kind === 'NotFound' ? portOk(undefined) : portFail(got.error.message);
    });
}
