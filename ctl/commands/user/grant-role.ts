/** `user grant-role <user> <role>`. */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { callAndPrint } from '../auth/shared.js';

export const userGrantRoleCommand: CommandSpec = {
  path: ['user', 'grant-role'],
  usage: '<user name> <role name>',
  summary: 'Grants a role to a user',
  run: async (ctx, args) => {
    if (args.length !== 2) return ctx.fail(ExitCode.BadArgs, 'user grant command requires user name and role name as its argument');
    const [user, role] = args as [string, string];
    return callAndPrint(ctx, (c) => c.auth.userGrantRole(user, role), (p, r) => p.done(`Role ${role} is granted to user ${user}`, r.header));
  },
};
