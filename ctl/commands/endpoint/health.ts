/**
 * `endpoint health [--cluster]`: a linearizable get of key `health` on each endpoint, through a
 * client of its own, concurrently; results in completion order. Success (or permission denied)
 * is healthy. Any unhealthy endpoint → `Error: unhealthy cluster`, exit 1.
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { isSetupError } from '../../cli/context.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { formatGoDuration } from '../../cli/go-duration.js';
import type { EpHealth } from '../../printer/index.js';
import { addClusterFlag, endpointsOf } from './cluster-endpoints.js';

export const endpointHealthCommand: CommandSpec = {
  path: ['endpoint', 'health'],
  usage: '',
  summary: 'Checks the healthiness of endpoints specified in `--endpoints` flag',
  options: addClusterFlag,
  run: async (ctx, _args, flags) => {
    const eps = await endpointsOf(ctx, flags);
    if (typeof eps === 'number') return eps;
    const results: EpHealth[] = [];
    await Promise.all(
      eps.map(async (ep) => {
        const client = ctx.client([ep]);
        if (isSetupError(client)) {
          results.push({ ep, health: false, took: '', error: client.setupError });
          return;
        }
        const start = ctx.io.monotonicNs();
        const r = await client.kv.get('health');
        const took = formatGoDuration(ctx.io.monotonicNs() - start);
        const healthy = r.ok || r.error.kind === 'PermissionDenied';
        results.push({ ep, health: healthy, took, error: healthy || r.ok ? '' : r.error.message });
      }),
    );
    const printed = ctx.printed(ctx.printer.endpointHealth(results));
    if (printed !== ExitCode.Success) return printed;
    return results.some((h) => h.error !== '') ? ctx.fail(ExitCode.Error, 'unhealthy cluster') : ExitCode.Success;
  },
};
