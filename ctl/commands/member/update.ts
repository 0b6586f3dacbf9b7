/**
 * `member update <memberID> --peer-urls=…`.
 */
import { flagString, type CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { parseMemberId } from './member-id.js';

export const memberUpdateCommand: CommandSpec = {
  path: ['member', 'update'],
  usage: '<memberID> [options]',
  summary: 'Updates a member in the cluster',
  options: (cmd) => {
    cmd.option('--peer-urls <urls>', 'comma separated peer URLs for the updated member.', '');
  },
  run: async (ctx, args, flags) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'member ID is not provided');
    const id = parseMemberId(args[0]);
    if (typeof id !== 'bigint') return ctx.fail(ExitCode.BadArgs, id.message);
    const peerUrls = flagString(flags, 'peerUrls');
    if (peerUrls === '') return ctx.fail(ExitCode.BadArgs, 'member peer urls not provided');
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.cluster.memberUpdate(id, peerUrls.split(','));
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    return ctx.printed(ctx.printer.memberUpdate(id, r.value));
  },
};
