/**
 * `snapshot save <file>`: streams one member's backend into `<file>.part` (mode 0600), checks
 * the SHA-256 trailer, syncs, renames to `<file>` and prints `Snapshot saved at <file>`. No
 * deadline unless --command-timeout is given (as etcdctl).
 * Logs the same info lines as etcdctl on stderr; draws a progress bar only when stderr is a
 * terminal. Any failure removes the `.part` file and exits 5 (etcdctl's ExitInterrupted).
 */
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import type { CommandSpec } from '../../cli/command-spec.js';
import { isSetupError, type CommandContext } from '../../cli/context.js';
import type { Client } from '../../client/index.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { toolInfo } from '../../cli/zap-log.js';
import { humanizeBytes } from '../../printer/humanize.js';
import { SnapshotChecksum } from '../../client/snapshot-checksum.js';
import { goPathError } from '../../../server/snapshot/restore/go-errors.js';
import { ProgressBar } from './progress-bar.js';

async function fetchInto(ctx: CommandContext, client: Client, f: FileHandle, ep: string): Promise<{ size: number } | { error: string }> {
  const sum = new SnapshotChecksum();
  const bar = ctx.io.stderrIsTTY ? new ProgressBar(ctx.io.stderr, ctx.io.now) : undefined;
  let total = 0;
  let first = true;
  for await (const r of client.maintenance.snapshot(ctx.global.commandTimeoutSet ? { timeoutMs: ctx.global.commandTimeoutMs } : {})) {
    if (!r.ok) return { error: r.error.message };
    if (first) {
      first = false;
      total = r.value.blob.length + Number(r.value.remainingBytes);
      toolInfo(ctx.io.stderr, ctx.io.now, 'snapshot/v3_snapshot.go:127', 'fetching snapshot', [['endpoint', ep]]);
    }
    await f.write(r.value.blob);
    sum.push(r.value.blob);
    bar?.update(sum.size, total);
  }
  bar?.finish(sum.size, total);
  const bad = sum.verify();
  if (bad !== undefined) return { error: bad };
  await f.sync();
  return { size: sum.size };
}

export const snapshotSaveCommand: CommandSpec = {
  path: ['snapshot', 'save'],
  usage: '<filename>',
  summary: 'Stores an etcd node backend snapshot to a given file',
  run: async (ctx, args) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'snapshot save expects one argument');
    const eps = ctx.global.endpoints;
    const path = args[0];
    const part = `${path}.part`;
    if (eps.length !== 1) return ctx.fail(ExitCode.Interrupted, `snapshot must be requested to one selected node, not multiple [${eps.join(' ')}]`);
    const client = ctx.client([eps[0]]);
    if (isSetupError(client)) return ctx.fail(ExitCode.Interrupted, client.setupError);
    if (ctx.global.user !== undefined) {
      const c = await client.connect();
      if (!c.ok) return ctx.fail(ExitCode.Interrupted, c.error.message);
    }
    let f: FileHandle;
    try {
      f = await open(part, 'w', 0o600);
    } catch (err) {
      return ctx.fail(ExitCode.Interrupted, `could not open ${part} (${goPathError('open', part, err)})`);
    }
    let saved = false;
    try {
      toolInfo(ctx.io.stderr, ctx.io.now, 'snapshot/v3_snapshot.go:119', 'created temporary db file', [['path', part]]);
      const started = ctx.io.monotonicNs();
      let got: { size: number } | { error: string };
      try {
        got = await fetchInto(ctx, client, f, eps[0]);
      } finally {
        await f.close();
      }
      if ('error' in got) return ctx.fail(ExitCode.Interrupted, got.error);
      const took = Number(ctx.io.monotonicNs() - started) / 1e9;
      toolInfo(ctx.io.stderr, ctx.io.now, 'snapshot/v3_snapshot.go:142', 'fetched snapshot', [
        ['endpoint', eps[0]],
        ['size', humanizeBytes(got.size)],
        ['took', took],
      ]);
      try {
        await rename(part, path);
      } catch (err) {
        return ctx.fail(ExitCode.Interrupted, `could not rename ${part} to ${path} (${goPathError('rename', `${part} ${path}`, err)})`);
      }
      saved = true;
      toolInfo(ctx.io.stderr, ctx.io.now, 'snapshot/v3_snapshot.go:152', 'saved', [['path', path]]);
      ctx.io.stdout.write(`Snapshot saved at ${path}\n`);
      return ExitCode.Success;
    } finally {
      if (!saved) await rm(part, { force: true });
    }
  },
};
