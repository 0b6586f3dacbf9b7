/**
 * `lease revoke <leaseID>`: deletes a lease and its keys.
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { parseLeaseId } from './lease-id.js';

export const leaseRevokeCommand: CommandSpec = {
  path: ['lease', 'revoke'],
  usage: '<leaseID>',
  summary: 'Revokes leases',
  run: async (ctx, args) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'lease revoke command needs 1 argument');
    const id = parseLeaseId(args[0]);
    if (typeof id !== 'bigint') return ctx.fail(ExitCode.BadArgs, id.message);
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.lease.revoke(id);
    if (!r.ok) return ctx.fail(ExitCode.Error, `failed to revoke lease (${r.error.message})`);
    return ctx.printed(ctx.printer.revoke(id, r.value));
  },
};
