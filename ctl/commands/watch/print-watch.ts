/**
 * Printing one watch until it ends: every update through the printer (`progress notify: <rev>`
 * first for progress notifications), the exec command run once per event, and
 * `watch was canceled (<reason>)` on stderr when the server cancels it or it fails.
 */
import { spawn } from 'node:child_process';
import { Event_EventType } from '../../../proto/gen/etcd/kv.js';
import { ETCD_ERROR_MESSAGES, statusText, GrpcCode, type Watcher, type WatchUpdate } from '../../client/index.js';
import type { CommandContext } from '../../cli/context.js';
import { goQuote } from '../../printer/go-format.js';

/** What a canceled update says (the Go client's WatchResponse.Err()). */
function cancelText(u: WatchUpdate): string {
  if (u.compactRevision !== 0n) return ETCD_ERROR_MESSAGES.Compacted;
  if (u.cancelReason !== '') {
    const known = Object.values(ETCD_ERROR_MESSAGES).includes(u.cancelReason);
    return known ? u.cancelReason : statusText(GrpcCode.FailedPrecondition, u.cancelReason);
  }
  return ETCD_ERROR_MESSAGES.FutureRev;
}

function runExec(ctx: CommandContext, execArgs: readonly string[], u: WatchUpdate, ev: WatchUpdate['events'][number]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(execArgs[0], execArgs.slice(1), {
      env: {
        ...ctx.io.env,
        ETCD_WATCH_REVISION: String(u.header.revision),
        ETCD_WATCH_EVENT_TYPE: `"${ev.type === Event_EventType.DELETE ? 'DELETE' : 'PUT'}"`,
        ETCD_WATCH_KEY: goQuote(ev.kv?.key ?? Buffer.alloc(0)),
        ETCD_WATCH_VALUE: goQuote(ev.kv?.value ?? Buffer.alloc(0)),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (b: Buffer) => ctx.io.stdout.write(b));
    child.stderr.on('data', (b: Buffer) => ctx.io.stderr.write(b));
    child.once('error', (err) => {
      ctx.io.stderr.write(`command [${execArgs.join(' ')}] error (${err.message})\n`);
      resolve(1);
    });
    child.once('close', (code) => {
      if (code !== 0) ctx.io.stderr.write(`command [${execArgs.join(' ')}] error (exit status ${code ?? 1})\n`);
      resolve(code ?? 1);
    });
  });
}

/**
 * Prints until the watch ends; returns 'canceled', or an exit code when the exec command failed.
 * `onProgress` is called after a progress notification was printed.
 */
export async function printWatch(
  ctx: CommandContext,
  watcher: Watcher,
  execArgs: readonly string[],
  onProgress?: () => void,
): Promise<'canceled' | number> {
  for await (const r of watcher) {
    if (!r.ok) {
      ctx.io.stderr.write(`watch was canceled (${r.error.message})\n`);
      return 'canceled';
    }
    const u = r.value;
    if (u.canceled) ctx.io.stderr.write(`watch was canceled (${cancelText(u)})\n`);
    if (u.progressNotify) {
      ctx.io.stdout.write(`progress notify: ${u.header.revision}\n`);
      onProgress?.();
    }
    const bad = ctx.printer.watch(u);
    if (bad !== undefined) return ctx.fail(bad.code, bad.message);
    for (const ev of execArgs.length > 0 ? u.events : []) {
      if ((await runExec(ctx, execArgs, u, ev)) !== 0) return 1;
    }
    if (u.canceled) return 'canceled';
  }
  return 'canceled';
}
