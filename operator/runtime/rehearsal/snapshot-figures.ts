/**
 * What a member restored from a snapshot file must serve, read from the file itself (bbolt,
 * server/snapshot/bbolt): the revision — the newest record's main revision in the `key` bucket,
 * never below the finished compaction revision (`meta`/`finishedCompactRev`) nor 1, the rule
 * a member recovering its store applies (server/mvcc/recover.ts) — and the live keys: the keys
 * whose newest record is a put, not a tombstone.
 *
 * Contract: read-only; a file that does not open as a database, or a malformed `key` bucket, is
 * a failure value. The SHA-256 trailer is not checked here (the restore checks it).
 */
import { openBolt } from '../../../server/snapshot/bbolt/index.js';
import { peekKey } from '../../../server/mvcc/kv-codec.js';
import { isRevisionKey, isTombstoneKey, mainOfKey } from '../../../server/mvcc/revision.js';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';

export interface SnapshotFigures {
  readonly revision: number;
  readonly keys: number;
}

const FINISHED_COMPACT = 'finishedCompactRev';

export async function snapshotFigures(file: string): Promise<PortResult<SnapshotFigures>> {
  try {
    const db = await openBolt(file);
    try {
      const names = db.bucketNames();
      let newest = 0n;
      const live = new Map<string, boolean>();
      if (names.includes('key')) {
        for await (const [k, v] of db.entries('key')) {
          if (!isRevisionKey(k)) return portFail(`snapshot ${file}: malformed key in the key bucket`);
          newest = mainOfKey(k);
          live.set(peekKey(v).toString('latin1'), !isTombstoneKey(k));
        }
      }
      let compacted = 0n;
      if (names.includes('meta')) {
        for await (const [k, v] of db.entries('meta')) if (k.toString('latin1') === FINISHED_COMPACT && v.length >= 8) compacted = mainOfKey(v);
      }
      const top = newest > compacted ? newest : compacted;
      let keys = 0;
      for (const alive of live.values()) if (alive) keys++;
      return portOk({ revision: Math.max(1, Number(top)), keys });
    } finally {
      await db.close();
    }
  } catch (err) {
    return portFail(`snapshot ${file} is not a readable database: ${(err as Error).message}`);
  }
}
