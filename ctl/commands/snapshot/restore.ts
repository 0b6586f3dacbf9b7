/**
 * `snapshot restore <file> [--name --initial-cluster --initial-cluster-token
 * --initial-advertise-peer-urls --data-dir --wal-dir --skip-hash-check]`: builds a new member's
 * data dir from a snapshot file written by kvstore or by etcd (server/snapshot/restore/). Flags
 * and defaults are etcdctl 3.4's, except that the data dir defaults to `<name>.kvstore` (the
 * server's default). Logs etcdctl's `restoring snapshot` / `restored snapshot` lines on stderr;
 * draws progress bars (hash check, copy) only when stderr is a terminal. Failures exit 1 with
 * etcdctl's texts (`data-dir "x" exists`, `expected sha256 […], got […]`, …).
 */
import { join } from 'node:path';
import { flagBool, flagString, type CommandSpec } from '../../cli/command-spec.js';
import type { CommandContext } from '../../cli/context.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { toolInfo, zapLine } from '../../cli/zap-log.js';
import { openBolt } from '../../../server/snapshot/bbolt/index.js';
import { restoreDataDir } from '../../../server/snapshot/restore/build-data-dir.js';
import { parseRestoreTarget } from '../../../server/snapshot/restore/restore-target.js';
import { ProgressBar } from './progress-bar.js';

function progressDrawer(ctx: CommandContext): ((phase: 'verify' | 'copy', done: number, total: number) => void) | undefined {
  if (!ctx.io.stderrIsTTY) return undefined;
  let phase: string | undefined;
  let bar: ProgressBar | undefined;
  return (p, done, total) => {
    if (p !== phase) {
      phase = p;
      ctx.io.stderr.write(p === 'verify' ? 'checking sha256\n' : 'copying buckets\n');
      bar = new ProgressBar(ctx.io.stderr, ctx.io.now);
    }
    if (done >= total) bar?.finish(done, total);
    else bar?.update(done, total);
  };
}

export const snapshotRestoreCommand: CommandSpec = {
  path: ['snapshot', 'restore'],
  usage: '<filename> [options]',
  summary: 'Restores an etcd or kvstore snapshot to a new kvstore data directory',
  options: (cmd) => {
    cmd
      .option('--data-dir <dir>', 'Path to the data directory (default: <name>.kvstore)')
      .option('--wal-dir <dir>', 'Path to the WAL directory (use --data-dir if none given)')
      .option('--initial-cluster <cluster>', 'Initial cluster configuration for restore bootstrap', 'default=http://localhost:2380')
      .option('--initial-cluster-token <token>', 'Initial cluster token for the etcd cluster during restore bootstrap', 'etcd-cluster')
      .option('--initial-advertise-peer-urls <urls>', "List of this member's peer URLs to advertise to the rest of the cluster", 'http://localhost:2380')
      .option('--name <name>', 'Human-readable name for this member', 'default')
      .option('--skip-hash-check', 'Ignore snapshot integrity hash value (required if copied from data directory)');
  },
  run: async (ctx, args, flags) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'snapshot restore requires exactly one argument');
    const path = args[0];
    const name = flagString(flags, 'name', 'default');
    const parsed = parseRestoreTarget({
      name,
      initialCluster: flagString(flags, 'initialCluster', 'default=http://localhost:2380'),
      initialClusterToken: flagString(flags, 'initialClusterToken', 'etcd-cluster'),
      initialAdvertisePeerUrls: flagString(flags, 'initialAdvertisePeerUrls', 'http://localhost:2380'),
    });
    if (!parsed.ok) return ctx.fail(ExitCode.Error, parsed.message);
    const dataDir = flagString(flags, 'dataDir') || `${name}.kvstore`;
    const walFlag = flagString(flags, 'walDir');
    const dirs: [string, string][] = [
      ['path', path],
      ['wal-dir', walFlag || join(dataDir, 'member', 'wal')],
      ['data-dir', dataDir],
      ['snap-dir', join(dataDir, 'member', 'snap')],
    ];
    const restored = await restoreDataDir(
      { snapshotPath: path, dataDir, ...(walFlag === '' ? {} : { walDir: walFlag }), skipHashCheck: flagBool(flags, 'skipHashCheck'), target: parsed.target },
      {
        openSnapshot: openBolt,
        onStart: () => toolInfo(ctx.io.stderr, ctx.io.now, 'snapshot/v3_snapshot.go:296', 'restoring snapshot', dirs),
        onProgress: progressDrawer(ctx),
      },
    );
    if (!restored.ok) return ctx.fail(ExitCode.Error, restored.message);
    for (const skipped of restored.value.skippedBuckets) {
      ctx.io.stderr.write(zapLine('warn', ctx.io.now() / 1000, 'snapshot/restore.ts', 'skipped a bucket kvstore does not keep', [['bucket', skipped]]));
    }
    toolInfo(ctx.io.stderr, ctx.io.now, 'snapshot/v3_snapshot.go:309', 'restored snapshot', dirs);
    return ExitCode.Success;
  },
};
