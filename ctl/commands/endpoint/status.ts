/**
 * `endpoint status [--cluster]`: Maintenance.Status of each endpoint in turn (a call bound to
 * that endpoint). A failing endpoint is reported on stderr and makes the exit code 1 after the
 * others are printed.
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import type { EpStatus } from '../../printer/index.js';
import { addClusterFlag, endpointsOf } from './cluster-endpoints.js';

export const endpointStatusCommand: CommandSpec = {
  path: ['endpoint', 'status'],
  usage: '',
  summary: 'Prints out the status of endpoints specified in `--endpoints` flag',
  options: addClusterFlag,
  run: async (ctx, _args, flags) => {
    const eps = await endpointsOf(ctx, flags);
    if (typeof eps === 'number') return eps;
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const list: EpStatus[] = [];
    let failed = false;
    for (const ep of eps) {
      const r = await client.maintenance.status({ endpoint: ep });
      if (!r.ok) {
        failed = true;
        ctx.io.stderr.write(`Failed to get the status of endpoint ${ep} (${r.error.message})\n`);
        continue;
      }
      list.push({ ep, resp: r.value });
    }
    const printed = ctx.printed(ctx.printer.endpointStatus(list));
    if (printed !== ExitCode.Success) return printed;
    return failed ? ExitCode.Error : ExitCode.Success;
  },
};
