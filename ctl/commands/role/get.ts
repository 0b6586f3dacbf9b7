/** `role get <name>`: the role's read and write permissions. */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { callAndPrint } from '../auth/shared.js';

export const roleGetCommand: CommandSpec = {
  path: ['role', 'get'],
  usage: '<role name>',
  summary: 'Gets detailed information of a role',
  run: async (ctx, args) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'role get command requires role name as its argument');
    return callAndPrint(ctx, (c) => c.auth.roleGet(args[0]!), (p, r) => p.roleGet(args[0]!, r));
  },
};
