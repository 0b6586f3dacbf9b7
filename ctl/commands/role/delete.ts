/** `role delete <name>`. */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { callAndPrint } from '../auth/shared.js';

export const roleDeleteCommand: CommandSpec = {
  path: ['role', 'delete'],
  usage: '<role name>',
  summary: 'Deletes a role',
  run: async (ctx, args) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'role delete command requires role name as its argument');
    return callAndPrint(ctx, (c) => c.auth.roleDelete(args[0]!), (p, r) => p.done(`Role ${args[0]} deleted`, r.header));
  },
};
