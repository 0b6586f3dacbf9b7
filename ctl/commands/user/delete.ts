/** `user delete <name>`. */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { callAndPrint } from '../auth/shared.js';

export const userDeleteCommand: CommandSpec = {
  path: ['user', 'delete'],
  usage: '<user name>',
  summary: 'Deletes a user',
  run: async (ctx, args) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'user delete command requires user name as its argument');
    return callAndPrint(ctx, (c) => c.auth.userDelete(args[0]!), (p, r) => p.done(`User ${args[0]} deleted`, r.header));
  },
};
