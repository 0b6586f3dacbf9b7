/** `user revoke-role <user> <role>`. */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { callAndPrint } from '../auth/shared.js';

export const userRevokeRoleCommand: CommandSpec = {
  path: ['user', 'revoke-role'],
  usage: '<user name> <role name>',
  summary: 'Revokes a role from a user',
  run: async (ctx, args) => {
    if (args.length !== 2) return ctx.fail(ExitCode.BadArgs, 'user revoke-role requires user name and role name as its argument');
    const [user, role] = args as [string, string];
    return callAndPrint(ctx, (c) => c.auth.userRevokeRole(user, role), (p, r) => p.done(`Role ${role} is revoked from user ${user}`, r.header));
  },
};
