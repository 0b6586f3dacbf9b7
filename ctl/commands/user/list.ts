/** `user list`: every user name, one per line. */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { callAndPrint } from '../auth/shared.js';

export const userListCommand: CommandSpec = {
  path: ['user', 'list'],
  usage: '',
  summary: 'Lists all users',
  run: async (ctx, args) => {
    if (args.length !== 0) return ctx.fail(ExitCode.BadArgs, 'user list command requires no arguments');
    return callAndPrint(ctx, (c) => c.auth.userList(), (p, r) => p.userList(r));
  },
};
