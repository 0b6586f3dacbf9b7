/**
 * Backups on Kubernetes: directory destinations live on the operator's backup volume
 * (`--backup-dir`, default `<snapshot-dir>/backups`), `<dir>/<namespace>/<destination.path>`, so
 * clusters of other namespaces never share or prune each other's backups; S3 uploads are verified
 * in `<dir>/.staging/<namespace>/` first; S3 credentials come from a Secret in the cluster's
 * namespace.
 */
import { join, resolve } from 'node:path';
import type { KvstoreCluster } from '../../api/types.js';
import type { SecretData } from '../../controller/access/secret-data.js';
import { namespaceOf } from '../../controller/builders/names.js';
import { portFail, portOk } from '../../controller/ports.js';
import { PlatformBackupStores } from '../backup-store/backup-stores.js';
import type { KubeClient, KubeObject } from '../kube/types.js';

export function kubeBackupStores(kube: KubeClient, backupDir: string): PlatformBackupStores {
  const root = resolve(backupDir);
  return new PlatformBackupStores({
    dirOf: (c: KvstoreCluster, path: string | undefined) => join(root, namespaceOf(c), path ?? ''),
    stagingDirOf: (c: KvstoreCluster) => join(root, '.staging', namespaceOf(c)),
    secretsOf: (c: KvstoreCluster) => async (name: string) => {
      const got = await kube.get<KubeObject & SecretData>({ apiVersion: 'v1', kind: 'Secret', namespace: namespaceOf(c), name });
      if (got.ok) return portOk(got.value);
      return got.error.kind === 'NotFound' ? portOk(undefined) : portFail(got.error.message);
    },
  });
}
