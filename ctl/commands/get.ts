/**
 * `get <key> [range_end]`: prints the matching pairs (`--print-value-only` only with the simple
 * format, checked after the request like etcdctl).
 */
import { flagBool, type CommandSpec } from '../cli/command-spec.js';
import { ExitCode } from '../cli/exit-codes.js';
import { addGetFlags, parseGetOp } from './kv/get-op.js';
import { isUsageError } from './kv/usage-error.js';

export const getCommand: CommandSpec = {
  path: ['get'],
  usage: '[options] <key> [range_end]',
  summary: 'Gets the key or a range of keys',
  options: addGetFlags,
  printerFlags: (flags) => ({ valueOnly: flagBool(flags, 'printValueOnly') }),
  run: async (ctx, args, flags) => {
    const op = parseGetOp(args, flags);
    if (isUsageError(op)) return ctx.fail(op.code, op.usageError);
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.kv.get(op.key, op.opts);
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    if (flagBool(flags, 'printValueOnly') && ctx.global.writeOut !== 'simple') {
      return ctx.fail(ExitCode.BadArgs, 'print-value-only is only for `--write-out=simple`');
    }
    return ctx.printed(ctx.printer.get(r.value));
  },
};
