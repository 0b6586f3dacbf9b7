/**
 * The operator side of a restore on Kubernetes: `GET /restore/<namespace>/<cluster>` on the
 * operator's metrics listener hands the snapshot the operator checked (the cluster's
 * `status.restore.file`) to the restore init containers of that cluster's pods
 * (builders/restore-init-container.ts).
 *
 * Contract (`serveRestore` answers; never throws):
 * - 401 without `Authorization: Bearer <token>`; 403 unless the token equals the one in the
 *   restore init container of the cluster's StatefulSet (compared in constant time) — the token is
 *   made when the StatefulSet is created, so only pods of that cluster (and readers of that
 *   StatefulSet) hold it;
 * - 404 when the cluster, its StatefulSet, its restore record or the file is missing;
 * - 403 for a file outside the namespace's snapshot and backup directories (restore-dirs.ts: a
 *   cluster is restored only from its own namespace's files, whatever its status says; `..` and
 *   symlinks leading out are refused);
 * - 200 with the file (`application/octet-stream`, its length) otherwise.
 *
 * Also `kubeRestoreInspector`: the engine's snapshot check on Kubernetes — `restoreFrom.path` is
 * a file in `<snapshot dir>/<namespace>/` (relative there, or absolute inside it); `backup` reads
 * the named cluster's `status.backups` through the API (the cluster cache's client) and locates
 * the picked record: a file path must be in the namespace's backup (or snapshot) directory,
 * relative paths are taken in `<backup dir>/<namespace>/`; an `s3://` object is downloaded with
 * the source cluster's `destination.s3` and credentials Secret into
 * `<backup dir>/.staging/<namespace>/restore/<cluster>/<name>`, which the route then serves. An
 * S3 backup of a cluster in another namespace is refused (its Secret is that namespace's).
 */
import { timingSafeEqual } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { API_VERSION, KIND } from '../../api/constants.js';
import type { KvstoreCluster } from '../../api/types.js';
import { storedRestore } from '../../controller/builders/restore-init-container.js';
import { namespaceOf, statefulSetName } from '../../controller/builders/names.js';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';
import { backupsOf, s3Location } from '../../controller/restore/backups.js';
import { FileRestoreInspector, type BackupLocator, type RestoreInspector } from '../../controller/restore/restore-source.js';
import type { PlatformBackupStores } from '../backup-store/backup-stores.js';
import type { RestoreCheck } from '../../controller/restore/restore-check.js';
import type { KubeClient, KubeObject } from '../kube/types.js';
import { containedFile, mayRestoreFrom, type RestoreDirs } from './restore-dirs.js';

export interface RestoreAnswer {
  readonly status: number;
  readonly message?: string;
  readonly size?: number;
  readonly open?: () => ReadStream;
}

const deny = (status: number, message: string): RestoreAnswer => ({ status, message });

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function serveRestore(kube: KubeClient, dirs: RestoreDirs, namespace: string, name: string, authorization: string | undefined): Promise<RestoreAnswer> {
  const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (token === undefined) return deny(401, 'a bearer token is required');
  const sts = await kube.get<KubeObject & Pick<IStatefulSet, 'spec'>>({ apiVersion: 'apps/v1', kind: 'StatefulSet', namespace, name });
  if (!sts.ok) return deny(sts.error.kind === 'NotFound' ? 404 : 503, `StatefulSet ${namespace}/${name}: ${sts.error.message}`);
  const seed = storedRestore(sts.value.spec?.template.spec?.initContainers);
  if (seed === undefined || !sameToken(seed.token, token)) return deny(403, 'the token is not this cluster\'s');
  const cluster = await kube.get<KubeObject & { status?: { restore?: { file?: string } } }>({ apiVersion: API_VERSION, kind: KIND, namespace, name });
  if (!cluster.ok) return deny(cluster.error.kind === 'NotFound' ? 404 : 503, `${KIND} ${namespace}/${name}: ${cluster.error.message}`);
  const file = cluster.value.status?.restore?.file;
  if (file === undefined) return deny(404, `${KIND} ${namespace}/${name} records no restore`);
  const contained = await containedFile(dirs, namespace, file);
  if (!contained.ok) return deny(403, contained.error);
  try {
    const st = await stat(file);
    return { status: 200, size: st.size, open: () => createReadStream(file) };
  } catch (err) {
    return deny(404, `${file}: ${(err as Error).message}`);
  }
}

/** The URL `serveRestore` answers at, for the pods of `cluster` (`base` = the operator's metrics Service URL). */
export function restoreURLOf(base: string, cluster: KvstoreCluster): string {
  return `${base.replace(/\/+$/, '')}/restore/${encodeURIComponent(namespaceOf(cluster))}/${encodeURIComponent(statefulSetName(cluster))}`;
}

/** Where a backup record of `source` is, for a cluster being restored on Kubernetes. */
function kubeBackupLocator(dirs: RestoreDirs, stores: PlatformBackupStores | undefined): BackupLocator {
  return async (restoring, source, record) => {
    const ns = namespaceOf(restoring);
    if (s3Location(record.uri) !== undefined) {
      if (stores === undefined) return portFail(`${record.uri}: this operator has no backup store to download it with`);
      if ((source.namespace || 'default') !== ns) return portFail(`${record.uri}: an S3 backup of a cluster in namespace ${source.namespace} is not restored in ${ns} (its credentials are that namespace's)`);
      const file = join(resolve(dirs.backupDir), '.staging', ns, 'restore', restoring.metadata.name, record.name);
      return stores.fetchS3(source, record.uri, file, record.size);
    }
    const file = isAbsolute(record.uri) ? record.uri : join(resolve(dirs.backupDir), ns, record.uri);
    return containedFile(dirs, ns, file);
  };
}

export function kubeRestoreInspector(kube: KubeClient, dirs: RestoreDirs, enabled: boolean, stores?: PlatformBackupStores): RestoreInspector {
  const snapshotDir = dirs.snapshotDir;
  const files = new FileRestoreInspector({
    locate: kubeBackupLocator(dirs, stores),
    resolvePath: (cluster, path): PortResult<string> => {
      const dir = join(resolve(snapshotDir), namespaceOf(cluster));
      const file = isAbsolute(path) ? resolve(path) : resolve(dir, path);
      // The route serves only what this rule allows (and checks symlinks again).
      return mayRestoreFrom(dirs, namespaceOf(cluster), file) ? portOk(file) : portFail(`${path} is not a file of ${dir} (the operator's snapshot volume, this namespace's directory) nor of its backup directory`);
    },
    backups: async (namespace, name) => {
      const got = await kube.get<KubeObject & Partial<Pick<KvstoreCluster, 'spec'>> & { status?: unknown }>({ apiVersion: API_VERSION, kind: KIND, namespace, name });
      if (!got.ok) return got.error.kind === 'NotFound' ? portOk(undefined) : portFail(got.error.message);
      const backup = got.value.spec?.backup;
      const source = { namespace, name, ...(backup === undefined ? {} : { backup }) };
      const backups = backupsOf(got.value.status);
      return portOk(backups === undefined ? { source } : { source, backups });
    },
  });
  const off: RestoreCheck = { ok: false, reason: 'RestoreUnsupported', message: 'this operator serves no snapshots to member pods: start it with a metrics listener (--metrics-bind-address)' };
  return { check: (cluster) => (enabled ? files.check(cluster) : Promise.resolve(off)) };
}
