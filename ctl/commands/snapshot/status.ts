/**
 * `snapshot status <file>`: hash, revision, total keys and total size of a snapshot file
 * (server/snapshot/restore/db-status.ts), printed as etcdctl 3.4 prints them:
 *   simple  `63d136a2, 6, 12, 20 kB`
 *   table   HASH | REVISION | TOTAL KEYS | TOTAL SIZE
 *   json    {"hash":1674655394,"revision":6,"totalKey":12,"totalSize":20480}
 *   fields  "Hash" : … / "Revision" : … / "Keys" : … / "Size" : …
 * protobuf is not supported (exit 4). A purely local command: no endpoint is contacted.
 */
import { stat } from 'node:fs/promises';
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { humanizeBytes } from '../../printer/humanize.js';
import { renderTable } from '../../printer/table-writer.js';
import { openBolt } from '../../../server/snapshot/bbolt/index.js';
import { inspectBolt } from '../../../server/snapshot/restore/bolt-size.js';
import { dbStatus, type DbStatus } from '../../../server/snapshot/restore/db-status.js';
import { goPathError } from '../../../server/snapshot/restore/go-errors.js';

/** The text etcdctl prints for `s` in `format`, or undefined when the format is not supported. */
export function formatDbStatus(format: string, s: DbStatus): string | undefined {
  const hash = s.hash.toString(16);
  switch (format) {
    case 'simple':
      return `${hash}, ${s.revision}, ${s.totalKey}, ${humanizeBytes(s.totalSize)}\n`;
    case 'table':
      return renderTable(['hash', 'revision', 'total keys', 'total size'], [[hash, String(s.revision), String(s.totalKey), humanizeBytes(s.totalSize)]]);
    case 'json':
      return `{"hash":${s.hash},"revision":${s.revision},"totalKey":${s.totalKey},"totalSize":${s.totalSize}}\n`;
    case 'fields':
      return `"Hash" : ${s.hash}\n"Revision" : ${s.revision}\n"Keys" : ${s.totalKey}\n"Size" : ${s.totalSize}\n`;
    default:
      return undefined;
  }
}

export const snapshotStatusCommand: CommandSpec = {
  path: ['snapshot', 'status'],
  usage: '<filename>',
  summary: 'Gets backend snapshot status of a given file',
  run: async (ctx, args) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'snapshot status requires exactly one argument');
    const path = args[0];
    try {
      await stat(path);
    } catch (err) {
      return ctx.fail(ExitCode.Error, goPathError('stat', path, err));
    }
    let status: DbStatus;
    try {
      const inspected = await inspectBolt(path);
      if (!inspected.ok) return ctx.fail(ExitCode.Error, inspected.problem);
      const db = await openBolt(path);
      try {
        status = await dbStatus(db, inspected.size);
      } finally {
        await db.close();
      }
    } catch (err) {
      return ctx.fail(ExitCode.Error, (err as Error).message);
    }
    const text = formatDbStatus(ctx.global.writeOut, status);
    if (text === undefined) return ctx.fail(ExitCode.BadFeature, `${ctx.global.writeOut} not supported as output format`);
    ctx.io.stdout.write(text);
    return ExitCode.Success;
  },
};
