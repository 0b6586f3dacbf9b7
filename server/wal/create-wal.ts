/**
 * Creates a new WAL directory atomically: the first segment (head: metadata and an empty hard
 * state) is written and fsynced inside `<dir>.tmp`, which is then renamed to `<dir>` and the parent
 * directory fsynced. A crash leaves either no WAL (a stale `<dir>.tmp`, removed by the next attempt)
 * or a complete one.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

import type { WalState } from './file-wal.js';
import { emptyHardState } from './log-replay.js';
import { segmentName } from './segment-name.js';
import { syncDir } from '../storage/sync-dir.js';
import { SegmentFile, type SegmentFileOptions } from './segment-file.js';
import { encodeSegmentHead } from './write-encoder.js';

/**
 * Creates the WAL at `dir`. An existing empty directory there is replaced; a non-empty one without
 * segments (the caller checked) is refused rather than deleted.
 */
export async function createWal(dir: string, metadata: Buffer, options: SegmentFileOptions): Promise<WalState> {
  const target = resolve(dir);
  const parent = dirname(target);
  const temp = `${target}.tmp`;
  await mkdir(parent, { recursive: true });
  await rm(temp, { recursive: true, force: true });
  await mkdir(temp);
  const name = segmentName(0n, 0n);
  const hardState = emptyHardState();
  const head = encodeSegmentHead(0, metadata, undefined, hardState);
  const file = await SegmentFile.create(temp, name, head.bytes, options);
  try {
    await rename(temp, target).catch((e: unknown) => {
      throw new Error(`wal: cannot create ${target}: it exists and holds files that are not WAL segments`, { cause: e });
    });
    await syncDir(parent);
  } catch (e) {
    await file.close();
    throw e;
  }
  return {
    dir: target,
    metadata: Buffer.from(metadata),
    segments: [{ name, seq: 0n, maxIndex: undefined }],
    file,
    crc: head.crc,
    position: { last: undefined },
    hardState,
    snapshot: undefined,
  };
}
