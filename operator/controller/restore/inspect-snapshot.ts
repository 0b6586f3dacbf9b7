/**
 * Checks a snapshot file before any member is restored from it (I/O): it exists and is a file
 * (else SnapshotMissing); it carries a SHA-256 trailer that matches its database image, and the
 * image opens as a bbolt database (else SnapshotCorrupt); then reads what the planner decides on:
 * the trailer (hex), the newest key revision, `cluster/clusterVersion`, and whether `meta` holds
 * 3.5's `term` / `confState` (storage written by 3.5). Streams the file; never holds it in memory.
 * Never throws: every failure is a RestoreCheck value.
 */
import { open, stat } from 'node:fs/promises';
import { openBolt } from '../../../server/snapshot/bbolt/index.js';
import { dbStatus } from '../../../server/snapshot/restore/db-status.js';
import { checkSnapshotHash } from '../../../server/snapshot/restore/hash-check.js';
import type { RestoreCheck } from './restore-check.js';

const SHA_LEN = 32;

async function trailerHex(path: string, size: number): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const b = Buffer.alloc(SHA_LEN);
    await fh.read(b, 0, SHA_LEN, size - SHA_LEN);
    return b.toString('hex');
  } finally {
    await fh.close();
  }
}

/** `cluster/clusterVersion`, and `3.5` when `meta` holds keys only 3.5 writes. */
async function versionsIn(path: string): Promise<{ clusterVersion?: string; storageVersion?: string; revision: number }> {
  const db = await openBolt(path);
  try {
    let clusterVersion: string | undefined;
    let storage35 = false;
    const names = db.bucketNames();
    if (names.includes('cluster')) {
      for await (const [k, v] of db.entries('cluster')) if (k.toString('latin1') === 'clusterVersion') clusterVersion = v.toString('utf8');
    }
    if (names.includes('meta')) {
      for await (const [k] of db.entries('meta')) if (['term', 'confState'].includes(k.toString('latin1'))) storage35 = true;
    }
    const revision = Number((await dbStatus(db, 0)).revision);
    return { revision, ...(clusterVersion === undefined ? {} : { clusterVersion }), ...(storage35 ? { storageVersion: '3.5' } : {}) };
  } finally {
    await db.close();
  }
}

export async function inspectSnapshot(path: string): Promise<RestoreCheck> {
  let size: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) return { ok: false, reason: 'SnapshotMissing', message: `${path} is not a snapshot file` };
    size = st.size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, reason: 'SnapshotMissing', message: code === 'ENOENT' ? `snapshot ${path} does not exist` : `snapshot ${path} cannot be read: ${(err as Error).message}` };
  }
  const hash = await checkSnapshotHash(path, false);
  if (!hash.ok) return { ok: false, reason: 'SnapshotCorrupt', message: `snapshot ${path} failed its integrity check: ${hash.message}` };
  try {
    const sha256 = await trailerHex(path, size);
    const v = await versionsIn(path);
    return { ok: true, facts: { file: path, sha256, size, ...v } };
  } catch (err) {
    return { ok: false, reason: 'SnapshotCorrupt', message: `snapshot ${path} is not a readable database: ${(err as Error).message}` };
  }
}
