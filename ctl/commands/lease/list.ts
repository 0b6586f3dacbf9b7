/**
 * `lease list`: every active lease id.
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { isSetupError } from '../../cli/context.js';
import { ExitCode } from '../../cli/exit-codes.js';

export const leaseListCommand: CommandSpec = {
  path: ['lease', 'list'],
  usage: '',
  summary: 'List all active leases',
  run: async (ctx) => {
    const client = ctx.client();
    if (isSetupError(client)) return ctx.fail(ExitCode.BadConnection, client.setupError);
    const r = await client.lease.leases({ timeoutMs: 0 });
    if (!r.ok) return ctx.fail(ExitCode.BadConnection, r.error.message);
    return ctx.printed(ctx.printer.leases(r.value));
  },
};
