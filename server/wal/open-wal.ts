/**
 * Entry points: `openWal` creates the WAL when `dir` holds no segment, otherwise reads it (repairing
 * a torn tail) and returns a Wal that continues it. `walExists` tells which case applies.
 */
import { readdir } from 'node:fs/promises';

import { createWal } from './create-wal.js';
import { emptyHardState } from './log-replay.js';
import { FileWal } from './file-wal.js';
import { readWal } from './read-wal.js';
import { segmentNames } from './segment-name.js';
import { SyncMode, type OpenedWal, type WalOptions } from './types.js';

export const DEFAULT_SEGMENT_BYTES = 64 * 1000 * 1000;
export const DEFAULT_PREALLOCATE_BYTES = 1024 * 1024;

/** True when `dir` exists and holds at least one segment file. */
export async function walExists(dir: string): Promise<boolean> {
  try {
    return segmentNames(await readdir(dir)).length > 0;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

/**
 * Opens (or creates) the WAL in `dir`. Throws WalError 'Corrupt' when existing segments are damaged
 * beyond a torn last write; I/O errors are thrown as they come.
 */
export async function openWal(dir: string, options: WalOptions): Promise<OpenedWal> {
  const segmentBytes = options.segmentBytes ?? DEFAULT_SEGMENT_BYTES;
  const preallocateBytes = options.preallocateBytes ?? DEFAULT_PREALLOCATE_BYTES;
  if (!(segmentBytes > 0) || !(preallocateBytes >= 0)) throw new RangeError('wal: segmentBytes must be > 0 and preallocateBytes >= 0');
  const fileOptions = { syncMode: options.syncMode ?? SyncMode.Dsync, preallocateBytes, onFsync: options.onFsync };
  const walOptions = { ...fileOptions, segmentBytes, onWriteBytes: options.onWriteBytes };
  if (!(await walExists(dir))) {
    const state = await createWal(dir, options.metadata, fileOptions);
    const contents = { metadata: state.metadata, hardState: emptyHardState(), snapshot: undefined, entries: [] };
    return { wal: new FileWal(state, walOptions), contents, created: true };
  }
  const { state, contents } = await readWal(dir, fileOptions, options.payloads);
  return { wal: new FileWal(state, walOptions), contents, created: false };
}
