/**
 * `lease list`: every active lease id.
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';

export const leaseListCommand: CommandSpec = {
  path: ['lease', 'list'],
  usage: '',
  summary: 'List all active leases',
  run: async (ctx) => {
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.lease.leases({ timeoutMs: 0 });
    if (!r.ok) return ctx.fail(ExitCode.BadConnection, r.error.message);
    return ctx.printed(ctx.printer.leases(r.value));
  },
};
