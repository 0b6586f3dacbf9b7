/**
 * `endpoint hashkv [--cluster] [--rev N]`: Maintenance.HashKV of each endpoint in turn. A
 * failing endpoint is reported on stderr; the last failure ends as `Error: …`, exit 1.
 */
import { flagString, parseInt64, type CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import type { EpHashKV } from '../../printer/index.js';
import { addClusterFlag, endpointsOf } from './cluster-endpoints.js';

export const endpointHashKVCommand: CommandSpec = {
  path: ['endpoint', 'hashkv'],
  usage: '',
  summary: 'Prints the KV history hash for each endpoint in --endpoints',
  options: (cmd) => {
    addClusterFlag(cmd);
    cmd.option('--rev <rev>', 'maximum revision to hash (default: all revisions)', '0');
  },
  run: async (ctx, _args, flags) => {
    const rev = parseInt64(flagString(flags, 'rev', '0'), 'rev');
    if (typeof rev !== 'bigint') return ctx.fail(ExitCode.Error, rev.message);
    const eps = await endpointsOf(ctx, flags);
    if (typeof eps === 'number') return eps;
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const list: EpHashKV[] = [];
    let lastError: string | undefined;
    for (const ep of eps) {
      const r = await client.maintenance.hashKV(rev, { endpoint: ep });
      if (!r.ok) {
        lastError = r.error.message;
        ctx.io.stderr.write(`Failed to get the hash of endpoint ${ep} (${r.error.message})\n`);
        continue;
      }
      list.push({ ep, resp: r.value });
    }
    const printed = ctx.printed(ctx.printer.endpointHashKV(list));
    if (printed !== ExitCode.Success) return printed;
    return lastError === undefined ? ExitCode.Success : ctx.fail(ExitCode.Error, lastError);
  },
};
