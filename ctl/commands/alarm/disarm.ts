/**
 * `alarm disarm`: deactivates every active alarm (listed first, then one request each) and
 * prints the alarms that were disarmed.
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import type { AlarmMember } from '../../../proto/gen/etcd/rpc.js';
import type { AlarmType } from '../../client/index.js';

export const alarmDisarmCommand: CommandSpec = {
  path: ['alarm', 'disarm'],
  usage: '',
  summary: 'Disarms all alarms',
  run: async (ctx, args) => {
    if (args.length !== 0) return ctx.fail(ExitCode.BadArgs, 'alarm disarm command accepts no arguments');
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const list = await client.maintenance.alarmList();
    if (!list.ok) return ctx.fail(ExitCode.Error, list.error.message);
    const disarmed: AlarmMember[] = [];
    for (const a of list.value.alarms) {
      const r = await client.maintenance.alarmDisarm(a.memberID, a.alarm as number as AlarmType);
      if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
      disarmed.push(...r.value.alarms);
    }
    return ctx.printed(ctx.printer.alarm({ header: undefined, alarms: disarmed }));
  },
};
