/** `role add <name>`. */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { callAndPrint } from '../auth/shared.js';

export const roleAddCommand: CommandSpec = {
  path: ['role', 'add'],
  usage: '<role name>',
  summary: 'Adds a new role',
  run: async (ctx, args) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'role add command requires role name as its argument');
    return callAndPrint(ctx, (c) => c.auth.roleAdd(args[0]!), (p, r) => p.done(`Role ${args[0]} created`, r.header));
  },
};
