/**
 * Starting on an etcd 3.4 data dir (one made by `etcdctl snapshot restore`, or a member's whose
 * log starts at index 1): converts it in place, once, before the member opens its WAL.
 *
 * Recognised by `member/snap/db` being a file (etcd's bbolt backend; kvstore's level backend is
 * a directory). The conversion never loses the originals and survives a crash at any point:
 *   1. read and check etcd's WAL and backend (plan.ts); a refusal changes nothing;
 *   2. move the originals aside: `<wal-dir>` → `<wal-dir>.etcd`, `snap/db` → `snap/db.etcd`
 *      (from here on "`snap/db.etcd` present, `snap/db` absent" means an import in progress);
 *   3. build the level backend in `snap/db.importing` (the bbolt buckets as kvstorectl snapshot
 *      restore copies them, the member list and consistent index of the plan) and kvstore's WAL
 *      in `<wal-dir>` (metadata = etcd's member and cluster ids, marker, hard state);
 *   4. rename `snap/db.importing` → `snap/db`: the import is complete.
 * A start after a crash in 3 or 4 redoes 3 from the originals. The originals stay for the
 * operator to remove.
 */
import { rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { finalOps } from '../../snapshot/restore/backend-rewrite.js';
import { copyBuckets } from '../../snapshot/restore/copy-buckets.js';
import { openBolt } from '../../snapshot/bbolt/index.js';
import { syncDir } from '../../storage/sync-dir.js';
import { openWal } from '../../wal/index.js';
import { readEtcdWal } from '../../wal/etcd/index.js';
import { META_CONSISTENT_INDEX } from '../../mvcc/meta.js';
import { encodeWalMetadata, type DataDirLayout } from '../data-dir.js';
import { planImport, type ImportPlan } from './plan.js';


export type ImportOutcome =
  | { readonly kind: 'NotEtcd' }
  | { readonly kind: 'Imported'; readonly plan: ImportPlan; readonly copied: number; readonly skippedBuckets: readonly string[] }
  | { readonly kind: 'Refused'; readonly reason: string };

async function kindOf(path: string): Promise<'file' | 'dir' | 'none'> {
  try {
    return (await stat(path)).isFile() ? 'file' : 'dir';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw err;
  }
}

async function consistentIndexOf(boltPath: string): Promise<bigint> {
  const bolt = await openBolt(boltPath);
  try {
    if (!bolt.bucketNames().includes('meta')) return 0n;
    for await (const [k, v] of bolt.entries('meta')) if (k.equals(META_CONSISTENT_INDEX) && v.length === 8) return v.readBigUInt64BE(0);
    return 0n;
  } finally {
    await bolt.close();
  }
}

export async function importEtcdDataDir(layout: DataDirLayout): Promise<ImportOutcome> {
  const boltAside = `${layout.backendPath}.etcd`;
  const walAside = `${layout.walDir}.etcd`;
  const dbKind = await kindOf(layout.backendPath);
  const resuming = dbKind === 'none' && (await kindOf(boltAside)) === 'file';
  if (dbKind !== 'file' && !resuming) return { kind: 'NotEtcd' };
  const boltPath = resuming ? boltAside : layout.backendPath;
  const walSource = (await kindOf(walAside)) === 'dir' ? walAside : layout.walDir;

  const wal = await readEtcdWal(walSource);
  if (!wal.ok) return { kind: 'Refused', reason: `etcd WAL ${walSource}: ${wal.reason}` };
  const planned = planImport(wal.wal, await consistentIndexOf(boltPath));
  if (!planned.ok) return { kind: 'Refused', reason: planned.reason };
  const plan = planned.plan;

  if (!resuming) {
    if (walSource === layout.walDir) await rename(layout.walDir, walAside);
    await rename(layout.backendPath, boltAside);
    await syncDir(dirname(walAside));
    await syncDir(dirname(boltAside));
  }
  const staging = `${layout.backendPath}.importing`;
  await rm(staging, { recursive: true, force: true });
  await rm(layout.walDir, { recursive: true, force: true });
  const filled = await fillBackend(boltAside, staging, plan);
  await writeLog(layout.walDir, plan);
  await rename(staging, layout.backendPath);
  await syncDir(dirname(layout.backendPath));
  return { kind: 'Imported', plan, ...filled };
}

async function fillBackend(boltPath: string, backendPath: string, plan: ImportPlan): Promise<{ copied: number; skippedBuckets: string[] }> {
  const bolt = await openBolt(boltPath);
  try {
    return await copyBuckets(bolt, backendPath, finalOps(plan.members, plan.consistentIndex, plan.removed));
  } finally {
    await bolt.close();
  }
}

async function writeLog(walDir: string, plan: ImportPlan): Promise<void> {
  const opened = await openWal(walDir, { metadata: encodeWalMetadata(plan.memberId, plan.clusterId) });
  try {
    await opened.wal.saveSnapshot(plan.marker);
    await opened.wal.save([], plan.hardState);
  } finally {
    await opened.wal.close();
  }
}
