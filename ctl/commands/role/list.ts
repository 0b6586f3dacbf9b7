/** `role list`: every role name, one per line. */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { callAndPrint } from '../auth/shared.js';

export const roleListCommand: CommandSpec = {
  path: ['role', 'list'],
  usage: '',
  summary: 'Lists all roles',
  run: async (ctx, args) => {
    if (args.length !== 0) return ctx.fail(ExitCode.BadArgs, 'role list command requires no arguments');
    return callAndPrint(ctx, (c) => c.auth.roleList(), (p, r) => p.roleList(r));
  },
};
