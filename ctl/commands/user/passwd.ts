/** `user passwd <name> [--interactive=false]`: changes a user's password (prompted, or the first word of stdin). */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { askPassword, callAndPrint, scanWord } from '../auth/shared.js';

export const userPasswdCommand: CommandSpec = {
  path: ['user', 'passwd'],
  usage: '<user name> [options]',
  summary: 'Changes password of user',
  options: (cmd) => {
    cmd.option('--interactive', 'If true, read password from stdin instead of interactive terminal (default true)');
    cmd.option('--no-interactive', 'Same as --interactive=false');
  },
  run: async (ctx, args, flags) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'user passwd command requires user name as its argument');
    let password: string;
    if (flags.interactive === false) password = await scanWord(ctx);
    else {
      const asked = await askPassword(ctx, args[0]!);
      if (typeof asked !== 'string') return ctx.fail(asked[0], asked[1]);
      password = asked;
    }
    return callAndPrint(ctx, (c) => c.auth.userChangePassword(args[0]!, password), (p, r) => p.done('Password updated', r.header));
  },
};
