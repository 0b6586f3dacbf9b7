/**
 * `watch [options] <key> [range_end] [-- <command> …]` and `watch -i`: prints events as they
 * happen (from `--rev` when given). When the server cancels the watch it prints why and
 * `Error: watch is canceled by the server` (exit 5). An interrupt ends the process by the
 * signal, as with etcdctl.
 */
import { flagBool, flagString, parseInt64, type CommandSpec } from '../cli/command-spec.js';
import { ExitCode } from '../cli/exit-codes.js';
import { watchInteractive } from './watch/interactive.js';
import { printWatch } from './watch/print-watch.js';
import { addWatchFlags, splitWatchArgs, watchTarget } from './watch/watch-args.js';

export const watchCommand: CommandSpec = {
  path: ['watch'],
  usage: '[options] [key or prefix] [range_end] [--] [exec-command arg1 arg2 ...]',
  summary: 'Watches events stream on keys or prefixes',
  options: addWatchFlags,
  run: async (ctx, args, flags) => {
    const envKey = ctx.io.env.KVSTORECTL_WATCH_KEY ?? '';
    const envRange = ctx.io.env.KVSTORECTL_WATCH_RANGE_END ?? '';
    if (envKey === '' && envRange !== '') return ctx.fail(ExitCode.BadArgs, `KVSTORECTL_WATCH_KEY is empty but got KVSTORECTL_WATCH_RANGE_END=${JSON.stringify(envRange)}`);
    const rev = parseInt64(flagString(flags, 'rev', '0'), 'rev');
    if (typeof rev !== 'bigint') return ctx.fail(ExitCode.Error, rev.message);
    if (flagBool(flags, 'interactive')) {
      const client = await ctx.mustClient();
      if (typeof client === 'number') return client;
      return watchInteractive(ctx, client, envKey, envRange);
    }
    const split = splitWatchArgs(ctx.argv, args, envKey, envRange);
    if ('error' in split) return ctx.fail(ExitCode.BadArgs, split.error);
    const prefix = flagBool(flags, 'prefix');
    const target = watchTarget(split.watchArgs, prefix);
    if ('error' in target) return ctx.fail(ExitCode.BadArgs, target.error);
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const watcher = client.watch(target.key, {
      ...(target.rangeEnd === undefined ? {} : { rangeEnd: target.rangeEnd }),
      prefix,
      startRevision: rev,
      prevKv: flagBool(flags, 'prevKv'),
    });
    const end = await printWatch(ctx, watcher, split.execArgs);
    if (end !== 'canceled') return end;
    return ctx.fail(ExitCode.Interrupted, 'watch is canceled by the server');
  },
};
