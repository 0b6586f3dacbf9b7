/**
 * The store's key index around a member's run: how it was recovered at start (from the
 * checkpoint a clean stop left, or rebuilt from the backend), logged once; and the checkpoint
 * saved at a clean stop for the next start (index-checkpoint-file.ts), a failure costing that
 * start only a scan.
 */
import type { Logger } from 'pino';
import type { MvccStoreImpl } from '../mvcc/store.js';
import { writeIndexCheckpoint } from './index-checkpoint-file.js';

export function logRecovery(store: MvccStoreImpl, ms: number, log: Logger): void {
  const how = store.recovered;
  const fields = { keys: store.keyCount, 'current-revision': String(store.currentRevision), took: `${(ms / 1000).toFixed(3)}s` };
  if (how.from === 'checkpoint') log.info(fields, 'recovered key index from checkpoint');
  else if (how.checkpointIgnored !== undefined) log.warn({ ...fields, reason: how.checkpointIgnored }, 'ignored key index checkpoint; rebuilt the key index from the backend');
  else log.info(fields, 'rebuilt key index from the backend');
}

/** The store's index checkpoint for the next start (a failure only costs that start a scan). */
export async function saveIndexCheckpoint(store: MvccStoreImpl, path: string, log: Logger): Promise<void> {
  try {
    const started = performance.now();
    await store.settle();
    const bytes = store.checkpoint();
    await writeIndexCheckpoint(path, bytes);
    log.info({ keys: store.keyCount, bytes: bytes.length, took: `${((performance.now() - started) / 1000).toFixed(3)}s` }, 'saved key index checkpoint');
  } catch (e) {
    log.warn({ err: e }, 'could not save key index checkpoint; the next start rebuilds the key index from the backend');
  }
}
