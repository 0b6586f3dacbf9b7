/**
 * `lease grant <ttl>`: creates a lease (`lease <id> granted with TTL(<ttl>s)`).
 */
import { parseInt64, type CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';

export const leaseGrantCommand: CommandSpec = {
  path: ['lease', 'grant'],
  usage: '<ttl>',
  summary: 'Creates leases',
  run: async (ctx, args) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'lease grant command needs TTL argument');
    const ttl = parseInt64(args[0], 'ttl');
    if (typeof ttl !== 'bigint') return ctx.fail(ExitCode.BadArgs, `bad TTL (${ttl.message.replace(/^.*flag: /, '')})`);
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.lease.grant(ttl);
    if (!r.ok) return ctx.fail(ExitCode.Error, `failed to grant lease (${r.error.message})`);
    return ctx.printed(ctx.printer.grant(r.value));
  },
};
