/**
 * `alarm list`: every active alarm (`memberID:<id> alarm:<TYPE> ` per line).
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';

export const alarmListCommand: CommandSpec = {
  path: ['alarm', 'list'],
  usage: '',
  summary: 'Lists all alarms',
  run: async (ctx, args) => {
    if (args.length !== 0) return ctx.fail(ExitCode.BadArgs, 'alarm list command accepts no arguments');
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.maintenance.alarmList();
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    return ctx.printed(ctx.printer.alarm(r.value));
  },
};
