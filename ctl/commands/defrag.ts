/**
 * `defrag [--cluster]`: defragments each endpoint's backend in turn; failures go to stderr and
 * make the exit code 1. Offline defragmentation (`--data-dir`) is not supported.
 */
import { flagString, type CommandSpec } from '../cli/command-spec.js';
import { ExitCode } from '../cli/exit-codes.js';
import { addClusterFlag, endpointsOf } from './endpoint/cluster-endpoints.js';

export const defragCommand: CommandSpec = {
  path: ['defrag'],
  usage: '',
  summary: 'Defragments the storage of the etcd members with given endpoints',
  options: (cmd) => {
    addClusterFlag(cmd);
    cmd.option('--data-dir <dir>', 'Optional. If present, defragments a data directory not in use by etcd.', '');
  },
  run: async (ctx, _args, flags) => {
    if (flagString(flags, 'dataDir') !== '') return ctx.fail(ExitCode.BadFeature, 'offline defragmentation (--data-dir) is not supported by kvstorectl');
    const eps = await endpointsOf(ctx, flags);
    if (typeof eps === 'number') return eps;
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    let failures = 0;
    for (const ep of eps) {
      const r = await client.maintenance.defragment({ endpoint: ep });
      if (r.ok) ctx.io.stdout.write(`Finished defragmenting etcd member[${ep}]\n`);
      else {
        failures++;
        ctx.io.stderr.write(`Failed to defragment etcd member[${ep}] (${r.error.message})\n`);
      }
    }
    return failures === 0 ? ExitCode.Success : ExitCode.Error;
  },
};
