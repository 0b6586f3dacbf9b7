/**
 * `lease keep-alive <leaseID> [--once]`: renews the lease and prints every answer until it
 * expires or is revoked (then `lease <id> expired or revoked.` in the simple format), or once.
 * An interrupt ends the process by the signal, as with etcdctl.
 */
import { flagBool, type CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { hex016 } from '../../printer/go-format.js';
import { parseLeaseId } from './lease-id.js';

export const leaseKeepAliveCommand: CommandSpec = {
  path: ['lease', 'keep-alive'],
  usage: '[options] <leaseID>',
  summary: 'Keeps leases alive (renew)',
  options: (cmd) => {
    cmd.option('--once', 'Resets the keep-alive time to its original value and exits immediately');
  },
  run: async (ctx, args, flags) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'lease keep-alive command needs lease ID as argument');
    const id = parseLeaseId(args[0]);
    if (typeof id !== 'bigint') return ctx.fail(ExitCode.BadArgs, id.message);
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    if (flagBool(flags, 'once')) {
      const r = await client.lease.keepAliveOnce(id, { timeoutMs: 0 });
      if (!r.ok) return ctx.fail(ExitCode.BadConnection, r.error.message);
      return ctx.printed(ctx.printer.keepAlive(r.value));
    }
    for await (const r of client.lease.keepAlive(id)) {
      if (!r.ok) break;
      if (r.value.TTL <= 0n) break;
      const printed = ctx.printed(ctx.printer.keepAlive(r.value));
      if (printed !== ExitCode.Success) return printed;
    }
    if (ctx.global.writeOut === 'simple') ctx.io.stdout.write(`lease ${hex016(id)} expired or revoked.\n`);
    return ExitCode.Success;
  },
};
