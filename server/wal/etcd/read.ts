/**
 * Reads an etcd 3.4 WAL directory (`*.wal` segments named `%016x-%016x.wal`, in sequence
 * order) and decodes it with decode.ts. Read-only: nothing in the directory is changed.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { segmentNames } from '../segment-name.js';
import { decodeEtcdWal, type EtcdWalOutcome } from './decode.js';

export async function readEtcdWal(dir: string): Promise<EtcdWalOutcome> {
  const segs = segmentNames(await readdir(dir));
  if (segs.length === 0) return { ok: false, reason: `no WAL segment in ${dir}` };
  const segments = [];
  for (const s of segs) segments.push({ name: s.name, bytes: await readFile(join(dir, s.name)) });
  return decodeEtcdWal(segments);
}
