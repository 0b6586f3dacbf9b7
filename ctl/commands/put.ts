/**
 * `put <key> <value>` (value from stdin when absent): prints `OK`, plus the previous pair with
 * `--prev-kv`.
 */
import { ExitCode } from '../cli/exit-codes.js';
import type { CommandSpec } from '../cli/command-spec.js';
import { readAll } from '../cli/stdin.js';
import { addPutFlags, parsePutOp } from './kv/put-op.js';
import { isUsageError } from './kv/usage-error.js';

export const putCommand: CommandSpec = {
  path: ['put'],
  usage: '[options] <key> <value> (<value> can also be given from stdin)',
  summary: 'Puts the given key into the store',
  options: addPutFlags,
  run: async (ctx, args, flags) => {
    const op = await parsePutOp(args, flags, () => readAll(ctx.io.stdin));
    if (isUsageError(op)) return ctx.fail(op.code, op.usageError);
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.kv.put(op.key, op.value, op.opts);
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    return ctx.printed(ctx.printer.put(r.value));
  },
};
