/**
 * Where local mode keeps a cluster's files, all beside the manifest file:
 *
 *   <manifest dir>/<cluster>.kvstore/
 *     state.json           the process table (state-file.ts; FORMAT.md)
 *     events.log           one JSON line per event
 *     <member>.data/       each member's data dir
 *     <member>.log         each member's output (every run appended)
 *     <member>.pid         pid of the member's running process
 *     tls/                 with spec.tls: the generated CA, member and operator certificates
 *     snapshots/           pre-upgrade snapshots (spec.upgrade.snapshot.volume, relative to
 *                          this directory unless absolute)
 *     backups/             scheduled backups (spec.backup.destination.path, relative to this
 *                          directory unless absolute; S3 uploads are verified in backups-staging/)
 */
import { dirname, isAbsolute, join, resolve } from 'node:path';

export class LocalLayout {
  readonly base: string;

  constructor(
    readonly manifestFile: string,
    readonly clusterName: string,
  ) {
    this.base = join(dirname(resolve(manifestFile)), `${clusterName}.kvstore`);
  }

  get stateFile(): string {
    return join(this.base, 'state.json');
  }
  get eventsFile(): string {
    return join(this.base, 'events.log');
  }
  dataDir(member: string): string {
    return join(this.base, `${member}.data`);
  }
  logFile(member: string): string {
    return join(this.base, `${member}.log`);
  }
  pidFile(member: string): string {
    return join(this.base, `${member}.pid`);
  }
  get tlsDir(): string {
    return join(this.base, 'tls');
  }
  /** The Secret manifest spec.auth.secretName names: `<secretName>.yaml` beside the manifest. */
  secretFile(secretName: string): string {
    return join(dirname(resolve(this.manifestFile)), `${secretName}.yaml`);
  }
  /** Directory of scheduled backups: `destination.path` (relative to the base unless absolute), default `backups`. */
  backupDir(path: string | undefined): string {
    return path === undefined ? join(this.base, 'backups') : isAbsolute(path) ? path : join(this.base, path);
  }
  get backupStagingDir(): string {
    return join(this.base, 'backups-staging');
  }
  snapshotDir(volume: string): string {
    return isAbsolute(volume) ? volume : join(this.base, volume);
  }
}
