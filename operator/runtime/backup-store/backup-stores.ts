/**
 * `BackupStores` for both platforms: a cluster's `spec.backup.destination` → a directory store
 * (fs-store.ts) or an S3 store (s3-store.ts). The platform says where directories are
 * (`dirOf`: Kubernetes `--backup-dir/<namespace>/<path>`, local `<cluster>.kvstore/<path>`),
 * where S3 uploads are staged, and how a Secret is read (`secretsOf`: the API server, or
 * `<name>.yaml` beside the local manifest). S3 clients are kept per cluster while the destination
 * and credentials stay the same; `close()` ends them.
 *
 * `fetchS3` is the restore side: the object of another cluster's backup record, downloaded with
 * that cluster's `destination.s3` and credentials Secret into a local file (reused when a file of
 * the recorded size is already there; the restore check verifies it either way).
 */
import { stat } from 'node:fs/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { S3_ACCESS_KEY_ID_KEY, S3_SECRET_ACCESS_KEY_KEY, S3_SESSION_TOKEN_KEY } from '../../api/schema-backup.js';
import type { KvstoreCluster } from '../../api/types.js';
import type { SecretData, SecretReader } from '../../controller/access/secret-data.js';
import type { BackupStore, BackupStores } from '../../controller/backup/store-port.js';
import type { BackupSource } from '../../controller/restore/restore-source.js';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';
import { DirectoryBackupStore } from './fs-store.js';
import { makeS3Client, S3BackupStore, type S3Credentials } from './s3-store.js';

export interface BackupStoresOptions {
  /** Directory for a cluster's backups, given `destination.path` (undefined: the default). */
  dirOf(cluster: KvstoreCluster, path: string | undefined): string;
  /** Local directory S3 uploads of a cluster are verified in first. */
  stagingDirOf(cluster: KvstoreCluster): string;
  /** Reads the cluster's Secrets (S3 credentials). */
  secretsOf(cluster: KvstoreCluster): SecretReader;
}

function text(secret: SecretData, key: string): string | undefined {
  const s = secret.stringData?.[key];
  if (s !== undefined) return s;
  const b = secret.data?.[key];
  return b === undefined ? undefined : Buffer.from(b, 'base64').toString('utf8');
}

async function credentialsOf(read: SecretReader, name: string): Promise<PortResult<S3Credentials>> {
  const got = await read(name);
  if (!got.ok) return portFail(`Secret ${name} (S3 credentials): ${got.error}`);
  if (got.value === undefined) return portFail(`Secret ${name} (S3 credentials) not found`);
  const accessKeyId = text(got.value, S3_ACCESS_KEY_ID_KEY);
  const secretAccessKey = text(got.value, S3_SECRET_ACCESS_KEY_KEY);
  if (!accessKeyId || !secretAccessKey) return portFail(`Secret ${name} (S3 credentials) needs keys ${S3_ACCESS_KEY_ID_KEY} and ${S3_SECRET_ACCESS_KEY_KEY}`);
  const sessionToken = text(got.value, S3_SESSION_TOKEN_KEY);
  return portOk({ accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) });
}

const keyOf = (c: KvstoreCluster): string => `${c.metadata.namespace ?? ''}/${c.metadata.name}`;

export class PlatformBackupStores implements BackupStores {
  private readonly clients = new Map<string, { readonly signature: string; readonly client: S3Client }>();

  constructor(private readonly o: BackupStoresOptions) {}

  async storeFor(cluster: KvstoreCluster): Promise<PortResult<BackupStore>> {
    const backup = cluster.spec.backup;
    if (backup === undefined) return portFail('spec.backup is not set');
    const { path, s3 } = backup.destination;
    if (s3 === undefined) return portOk(new DirectoryBackupStore(this.o.dirOf(cluster, path), cluster.metadata.name));
    let creds: S3Credentials | undefined;
    if (s3.credentialsSecret !== undefined) {
      const got = await credentialsOf(this.o.secretsOf(cluster), s3.credentialsSecret);
      if (!got.ok) return got;
      creds = got.value;
    }
    const signature = JSON.stringify([s3, creds]);
    const key = keyOf(cluster);
    let entry = this.clients.get(key);
    if (entry?.signature !== signature) {
      entry?.client.destroy();
      entry = { signature, client: makeS3Client(s3, creds) };
      this.clients.set(key, entry);
    }
    return portOk(new S3BackupStore(entry.client, s3, cluster.metadata.name, this.o.stagingDirOf(cluster)));
  }

  /** Downloads backup `uri` of `source` (an S3 destination) into `file`; a file of `size` bytes already there is reused. */
  async fetchS3(source: BackupSource, uri: string, file: string, size: number | undefined): Promise<PortResult<string>> {
    const s3 = source.backup?.destination.s3;
    if (s3 === undefined) return portFail(`${uri}: cluster ${source.name} has no spec.backup.destination.s3 (bucket, endpoint, credentials) to read it with`);
    if (size !== undefined && (await stat(file).then((st) => st.size, () => -1)) === size) return portOk(file);
    // The source as far as storeFor reads it: its name, namespace (Secrets) and spec.backup (a lenient local manifest may lack the region's default).
    const backup = { ...source.backup, destination: { s3: { ...s3, region: s3.region ?? 'us-east-1' } } };
    const asCluster = { metadata: { name: source.name, ...(source.namespace === '' ? {} : { namespace: source.namespace }) }, spec: { backup } } as unknown as KvstoreCluster;
    const store = await this.storeFor(asCluster);
    if (!store.ok) return store;
    if (!(store.value instanceof S3BackupStore)) return portFail(`${uri}: not an S3 store`);
    return store.value.download(uri, file);
  }

  /** Ends the S3 client of a deleted cluster. */
  forget(cluster: KvstoreCluster): void {
    this.clients.get(keyOf(cluster))?.client.destroy();
    this.clients.delete(keyOf(cluster));
  }

  close(): void {
    for (const e of this.clients.values()) e.client.destroy();
    this.clients.clear();
  }
}
