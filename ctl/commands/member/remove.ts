/**
 * `member remove <memberID>` (hexadecimal id).
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { parseMemberId } from './member-id.js';

export const memberRemoveCommand: CommandSpec = {
  path: ['member', 'remove'],
  usage: '<memberID>',
  summary: 'Removes a member from the cluster',
  run: async (ctx, args) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'member ID is not provided');
    const id = parseMemberId(args[0]);
    if (typeof id !== 'bigint') return ctx.fail(ExitCode.BadArgs, id.message);
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.cluster.memberRemove(id);
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    return ctx.printed(ctx.printer.memberRemove(id, r.value));
  },
};
