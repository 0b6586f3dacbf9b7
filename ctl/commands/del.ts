/**
 * `del <key> [range_end]`: prints the number of deleted keys (and the pairs with `--prev-kv`).
 */
import type { CommandSpec } from '../cli/command-spec.js';
import { ExitCode } from '../cli/exit-codes.js';
import { addDelFlags, parseDelOp } from './kv/del-op.js';
import { isUsageError } from './kv/usage-error.js';

export const delCommand: CommandSpec = {
  path: ['del'],
  usage: '[options] <key> [range_end]',
  summary: 'Removes the specified key or range of keys [key, range_end)',
  options: addDelFlags,
  run: async (ctx, args, flags) => {
    const op = parseDelOp(args, flags);
    if (isUsageError(op)) return ctx.fail(op.code, op.usageError);
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.kv.delete(op.key, op.opts);
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    return ctx.printed(ctx.printer.del(r.value));
  },
};
