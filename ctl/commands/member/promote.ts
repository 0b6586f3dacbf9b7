/**
 * `member promote <memberID>`: makes a learner a voting member.
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { parseMemberId } from './member-id.js';

export const memberPromoteCommand: CommandSpec = {
  path: ['member', 'promote'],
  usage: '<memberID>',
  summary: 'Promotes a non-voting member in the cluster',
  run: async (ctx, args) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'member ID is not provided');
    const id = parseMemberId(args[0]);
    if (typeof id !== 'bigint') return ctx.fail(ExitCode.BadArgs, id.message);
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.cluster.memberPromote(id);
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    return ctx.printed(ctx.printer.memberPromote(id, r.value));
  },
};
