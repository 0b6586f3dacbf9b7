/**
 * `watch -i`: reads commands from stdin — `watch [options] <key> [range_end] [-- cmd…]` starts
 * another watch printed concurrently, `progress` asks every watch for a progress notification —
 * until stdin ends (`Error: Error reading watch request line: EOF`, exit 3). At the end of input,
 * progress notifications already asked for are awaited (at most PROGRESS_WAIT_MS) so they are
 * printed before the EOF error, as etcdctl prints them when its answers arrive first.
 */
import { Command, CommanderError } from 'commander';
import type { Client, Watcher } from '../../client/index.js';
import type { CommandContext } from '../../cli/context.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { LineReader } from '../../cli/stdin.js';
import { argify } from '../txn/argify.js';
import { printWatch } from './print-watch.js';
import { addWatchFlags, watchTarget } from './watch-args.js';

function parseLine(words: readonly string[]): { args: string[]; flags: Record<string, unknown>; execArgs: string[] } | { error: string } {
  const sep = words.indexOf('--');
  if (sep >= 0 && sep === words.length - 1) return { error: 'bad number of arguments (found separator --, but no commands)' };
  const own = sep < 0 ? words : words.slice(0, sep);
  const cmd = new Command('watch').exitOverride().configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  cmd.argument('[args...]').allowExcessArguments(true);
  addWatchFlags(cmd);
  let args: string[] = [];
  cmd.action((a: string[]) => {
    args = a;
  });
  try {
    cmd.parse([...own], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return { error: e.message.replace(/^error: /, '') };
    throw e;
  }
  return { args, flags: cmd.opts(), execArgs: sep < 0 ? [] : words.slice(sep + 1) };
}

const PROGRESS_WAIT_MS = 1_000;

/** Counts progress notifications asked for and printed; `settled` resolves when all were printed. */
class ProgressTally {
  private asked = 0;
  private printed = 0;
  private wake: (() => void) | undefined;

  ask(n: number): void {
    this.asked += n;
  }

  printedOne = (): void => {
    this.printed++;
    if (this.printed >= this.asked) this.wake?.();
  };

  settled(timeoutMs: number): Promise<void> {
    if (this.printed >= this.asked) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

export async function watchInteractive(ctx: CommandContext, client: Client, envKey: string, envRange: string): Promise<number> {
  const lines = new LineReader(ctx.io.stdin);
  const watchers: Watcher[] = [];
  const printing: Promise<unknown>[] = [];
  const progress = new ProgressTally();
  try {
    for (;;) {
      const raw = await lines.next();
      if (raw === undefined || !raw.endsWith('\n')) {
        await progress.settled(PROGRESS_WAIT_MS);
        return ctx.fail(ExitCode.InvalidInput, 'Error reading watch request line: EOF');
      }
      const l = raw.slice(0, -1);
      const words = argify(l);
      if (!Array.isArray(words) || words.length < 1) {
        ctx.io.stderr.write(`Invalid command: ${l} (watch and progress supported)\n`);
        continue;
      }
      if (words[0] === 'progress') {
        progress.ask(watchers.length);
        for (const w of watchers) w.requestProgress();
        continue;
      }
      if (words[0] !== 'watch') {
        ctx.io.stderr.write(`Invalid command ${l} (only support watch)\n`);
        continue;
      }
      if (words.length < 2 && envKey === '') {
        ctx.io.stderr.write(`Invalid command ${l} (command type or key is not provided)\n`);
        continue;
      }
      const parsed = parseLine(words.slice(1));
      if ('error' in parsed) return ctx.fail(ExitCode.BadArgs, parsed.error);
      const watchArgs = envKey === '' ? parsed.args : [envKey, ...(envRange === '' ? [] : [envRange]), ...parsed.args];
      const prefix = parsed.flags.prefix === true;
      const target = watchTarget(watchArgs, prefix);
      if ('error' in target) {
        ctx.io.stderr.write(`Invalid command ${l} (${target.error})\n`);
        continue;
      }
      const rev = /^\d+$/.test(String(parsed.flags.rev ?? '0')) ? BigInt(String(parsed.flags.rev ?? '0')) : 0n;
      const w = client.watch(target.key, {
        ...(target.rangeEnd === undefined ? {} : { rangeEnd: target.rangeEnd }),
        prefix,
        startRevision: rev,
        prevKv: parsed.flags.prevKv === true,
      });
      watchers.push(w);
      printing.push(printWatch(ctx, w, parsed.execArgs, progress.printedOne));
    }
  } finally {
    for (const w of watchers) w.close();
  }
}
