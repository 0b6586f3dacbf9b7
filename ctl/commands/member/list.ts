/**
 * `member list`: every member (id, started/unstarted, name, peer and client URLs, learner).
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';

export const memberListCommand: CommandSpec = {
  path: ['member', 'list'],
  usage: '',
  summary: 'Lists all members in the cluster',
  run: async (ctx) => {
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.cluster.memberList();
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    return ctx.printed(ctx.printer.memberList(r.value));
  },
};
