/**
 * `BackupStore` on an S3 bucket (or an S3-compatible store: MinIO, Ceph RGW…) with
 * @aws-sdk/client-s3. The snapshot is streamed and verified into a local staging file first
 * (`<stagingDir>/<name>`, the member admin's `.part` + rename), then uploaded with one PutObject
 * (an object appears whole or not at all; the SHA-256, revision and source member go along as
 * object metadata), and the staging file is removed. Keys are `<prefix>/<name>`; the cluster's
 * backups are listed by the prefix `<prefix>/<cluster>-` and recognised by name (names.ts).
 *
 * `download` is the restore side: an object of this bucket (a backup record's `s3://` URI) is
 * streamed into a local file (`<file>.part`, renamed when complete); the caller checks it.
 *
 * Limits: one PutObject carries at most 5 GiB (a multipart upload would need @aws-sdk/lib-storage).
 * With an `endpoint`, path-style addressing is used (what S3-compatible stores expect). Only the
 * checksums S3 requires are computed (`WHEN_REQUIRED`), which S3-compatible stores accept.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, type ListObjectsV2CommandOutput } from '@aws-sdk/client-s3';
import type { RetainedBackup, S3Destination } from '../../api/types.js';
import { backupTime } from '../../controller/backup/names.js';
import { s3Location } from '../../controller/restore/backups.js';
import type { BackupStore } from '../../controller/backup/store-port.js';
import { portFail, portOk, type PortResult, type SnapshotFile } from '../../controller/ports.js';

export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** `a/b` → `a/b/`; '' stays ''. */
export function keyPrefix(prefix: string | undefined): string {
  const p = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  return p === '' ? '' : `${p}/`;
}

export function makeS3Client(dest: S3Destination, credentials: S3Credentials | undefined): S3Client {
  return new S3Client({
    region: dest.region,
    ...(dest.endpoint === undefined ? {} : { endpoint: dest.endpoint, forcePathStyle: true }),
    ...(credentials === undefined ? {} : { credentials }),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
}

const message = (err: unknown): string => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

export class S3BackupStore implements BackupStore {
  private readonly prefix: string;

  constructor(
    private readonly client: S3Client,
    private readonly dest: S3Destination,
    readonly cluster: string,
    /** Local directory the snapshot is verified in before the upload. */
    private readonly stagingDir: string,
  ) {
    this.prefix = keyPrefix(dest.prefix);
  }

  get where(): string {
    return `s3://${this.dest.bucket}/${this.prefix}`;
  }

  async localFile(name: string): Promise<PortResult<string>> {
    try {
      await mkdir(this.stagingDir, { recursive: true });
      return portOk(join(this.stagingDir, name));
    } catch (err) {
      return portFail(`create staging directory ${this.stagingDir}: ${message(err)}`);
    }
  }

  async publish(name: string, file: SnapshotFile): Promise<PortResult<string>> {
    const key = this.prefix + name;
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.dest.bucket,
          Key: key,
          Body: createReadStream(file.file),
          ContentLength: file.size,
          ContentType: 'application/octet-stream',
          Metadata: { sha256: file.sha256, revision: String(file.revision) },
        }),
      );
      return portOk(`s3://${this.dest.bucket}/${key}`);
    } catch (err) {
      return portFail(`upload ${key}: ${message(err)}`);
    } finally {
      await rm(file.file, { force: true }).catch(() => undefined);
    }
  }

  /** Downloads the object `uri` (`s3://<this bucket>/<key>`) into `file` (`.part`, then renamed). */
  async download(uri: string, file: string): Promise<PortResult<string>> {
    const at = s3Location(uri);
    if (at === undefined) return portFail(`${uri} is not an s3:// URI`);
    if (at.bucket !== this.dest.bucket) return portFail(`${uri} is not in bucket ${this.dest.bucket} (the source cluster's spec.backup.destination.s3)`);
    const part = `${file}.part`;
    try {
      await mkdir(dirname(file), { recursive: true });
      const got = await this.client.send(new GetObjectCommand({ Bucket: at.bucket, Key: at.key }));
      if (!(got.Body instanceof Readable)) return portFail(`download ${uri}: no body`);
      await pipeline(got.Body, createWriteStream(part));
      await rename(part, file);
      return portOk(file);
    } catch (err) {
      await rm(part, { force: true }).catch(() => undefined);
      return portFail(`download ${uri}: ${message(err)}`);
    }
  }

  async discard(name: string): Promise<void> {
    for (const f of [name, `${name}.part`]) await rm(join(this.stagingDir, f), { force: true }).catch(() => undefined);
  }

  async list(): Promise<PortResult<readonly RetainedBackup[]>> {
    const out: RetainedBackup[] = [];
    let token: string | undefined;
    try {
      do {
        const page: ListObjectsV2CommandOutput = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.dest.bucket, Prefix: `${this.prefix}${this.cluster}-`, ...(token === undefined ? {} : { ContinuationToken: token }) }),
        );
        for (const o of page.Contents ?? []) {
          const name = (o.Key ?? '').slice(this.prefix.length);
          const time = backupTime(this.cluster, name);
          if (time !== undefined) out.push({ name, uri: `s3://${this.dest.bucket}/${o.Key ?? ''}`, time, size: o.Size ?? 0 });
        }
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      return portOk(out.sort((a, b) => a.time.localeCompare(b.time) || a.name.localeCompare(b.name)));
    } catch (err) {
      return portFail(`list ${this.where}: ${message(err)}`);
    }
  }

  async remove(names: readonly string[]): Promise<PortResult<void>> {
    try {
      for (const n of names) {
        if (backupTime(this.cluster, n) !== undefined) await this.client.send(new DeleteObjectCommand({ Bucket: this.dest.bucket, Key: this.prefix + n }));
      }
      return portOk(undefined);
    } catch (err) {
      return portFail(`delete backups in ${this.where}: ${message(err)}`);
    }
  }
}
