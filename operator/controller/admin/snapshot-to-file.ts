/**
 * Streams Maintenance.Snapshot from one member into a file, the way `kvstorectl snapshot save`
 * does: write `<file>.part` (mode 0600), check the 32-byte SHA-256 trailer (the stream is the
 * database image followed by the digest of the image), fsync, check the revision, rename to
 * `<file>`, fsync the directory. The stream goes as the root user when the cluster has credentials
 * (a member with auth on sends snapshots to root only), through the client the status call chose.
 *
 * Contract: the result's `sha256` is the image's digest (hex, equal to the file's trailer),
 * `size` the whole file's bytes, `revision` the revision the image holds as `snapshot status`
 * reads it (the newest key revision; 0 for a store without keys). The image must open as a
 * database and its revision must not be newer than the member's revision (Maintenance.Status)
 * read once the stream ended. (It can be older than the member's revision: the member's
 * revision also counts writes whose keys a compaction removed, and is 1 for an empty store.)
 * On any failure the `.part` file is removed, nothing is written at `<file>`, and the failure
 * is a value.
 */
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SnapshotChecksum } from '../../../ctl/client/index.js';
import { openBolt } from '../../../server/snapshot/bbolt/index.js';
import { dbStatus } from '../../../server/snapshot/restore/db-status.js';
import { syncDir } from '../../../server/storage/sync-dir.js';
import { portFail, portOk, type PortResult, type SnapshotFile } from '../ports.js';
import type { GrpcCalls } from './grpc-calls.js';

/** The revision the snapshot image holds (the last key revision, as `snapshot status` reports). */
async function imageRevision(file: string): Promise<PortResult<number>> {
  try {
    const db = await openBolt(file);
    try {
      return portOk(Number((await dbStatus(db, 0)).revision));
    } finally {
      await db.close();
    }
  } catch (err) {
    return portFail(`snapshot ${file} is not a readable database: ${(err as Error).message}`);
  }
}

async function streamInto(calls: GrpcCalls, url: string, part: string, timeoutMs: number, signal?: AbortSignal): Promise<PortResult<SnapshotChecksum>> {
  const sum = new SnapshotChecksum();
  const f = await open(part, 'w', 0o600);
  try {
    for await (const r of calls.clientFor(url).maintenance.snapshot({ timeoutMs, ...(signal === undefined ? {} : { signal }) })) {
      if (!r.ok) return portFail(`Maintenance.Snapshot at ${url}: ${r.error.message}`);
      await f.write(r.value.blob);
      sum.push(r.value.blob);
    }
    const bad = sum.verify();
    if (bad !== undefined) return portFail(`snapshot from ${url}: ${bad}`);
    await f.sync();
    return portOk(sum);
  } finally {
    await f.close();
  }
}

export async function snapshotToFile(
  calls: GrpcCalls,
  url: string,
  file: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<PortResult<SnapshotFile>> {
  const part = `${file}.part`;
  let done = false;
  try {
    // A quick call first: an unreachable member fails within the call timeout, not the stream's.
    const reachable = await calls.status(url, signal);
    if (!reachable.ok) return reachable;
    const got = await streamInto(calls, url, part, timeoutMs, signal);
    if (!got.ok) return got;
    const rev = await imageRevision(part);
    if (!rev.ok) return rev;
    const st = await calls.status(url, signal);
    if (!st.ok) return st;
    if (rev.value > st.value.revision) return portFail(`snapshot from ${url} holds revision ${rev.value}, newer than the member's revision ${st.value.revision}`);
    await rename(part, file);
    await syncDir(dirname(file));
    done = true;
    return portOk({ file, sha256: got.value.trailerHex, revision: rev.value, size: got.value.size });
  } catch (err) {
    return portFail(`snapshot from ${url} to ${file}: ${(err as Error).message}`);
  } finally {
    if (!done) await rm(part, { force: true });
  }
}
