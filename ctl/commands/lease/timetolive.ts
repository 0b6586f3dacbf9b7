/**
 * `lease timetolive <leaseID> [--keys]`: granted and remaining TTL (no deadline, like etcdctl).
 */
import { flagBool, type CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { parseLeaseId } from './lease-id.js';

export const leaseTimeToLiveCommand: CommandSpec = {
  path: ['lease', 'timetolive'],
  usage: '<leaseID> [options]',
  summary: 'Get lease information',
  options: (cmd) => {
    cmd.option('--keys', 'Get keys attached to this lease');
  },
  run: async (ctx, args, flags) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'lease timetolive command needs lease ID as argument');
    const id = parseLeaseId(args[0]);
    if (typeof id !== 'bigint') return ctx.fail(ExitCode.BadArgs, id.message);
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const keys = flagBool(flags, 'keys');
    const r = await client.lease.timeToLive(id, { keys, timeoutMs: 0 });
    if (!r.ok) return ctx.fail(ExitCode.BadConnection, r.error.message);
    return ctx.printed(ctx.printer.timeToLive(r.value, keys));
  },
};
