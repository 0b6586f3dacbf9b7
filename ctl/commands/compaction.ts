/**
 * `compaction [--physical] <revision>`: discards history before the revision.
 */
import { flagBool, parseInt64, type CommandSpec } from '../cli/command-spec.js';
import { ExitCode } from '../cli/exit-codes.js';

export const compactionCommand: CommandSpec = {
  path: ['compaction'],
  usage: '[options] <revision>',
  summary: 'Compacts the event history in etcd',
  options: (cmd) => {
    cmd.option('--physical', "'true' to wait for compaction to physically remove all old revisions");
  },
  run: async (ctx, args, flags) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'compaction command needs 1 argument');
    const rev = parseInt64(args[0], 'revision');
    if (typeof rev !== 'bigint') return ctx.fail(ExitCode.Error, rev.message.replace(/^.*flag: /, ''));
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.kv.compact(rev, { physical: flagBool(flags, 'physical') });
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    ctx.io.stdout.write(`compacted revision ${rev}\n`);
    return ExitCode.Success;
  },
};
