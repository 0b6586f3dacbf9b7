/**
 * `user add <name or name:password> [--new-user-password=…] [--interactive=false] [--no-password]`:
 * the password comes from the flag, from `name:password`, from stdin (`--interactive=false`,
 * first word) or from a prompt, in etcdctl's order.
 */
import { flagBool, flagString, type CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { askPassword, callAndPrint, scanWord } from '../auth/shared.js';

export const userAddCommand: CommandSpec = {
  path: ['user', 'add'],
  usage: '<user name or user:password> [options]',
  summary: 'Adds a new user',
  options: (cmd) => {
    cmd.option('--interactive', 'Read password from stdin instead of interactive terminal (default true)');
    cmd.option('--no-interactive', 'Same as --interactive=false');
    cmd.option('--new-user-password <password>', 'Supply password from the command line flag', '');
    cmd.option('--no-password', 'Create a user without password (CN based auth only)');
  },
  run: async (ctx, args, flags) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'user add command requires user name as its argument');
    const noPassword = flags.password === false || flagBool(flags, 'noPassword');
    let user = args[0]!;
    let password = '';
    if (!noPassword) {
      const fromFlag = flagString(flags, 'newUserPassword');
      const colon = user.indexOf(':');
      if (fromFlag !== '') password = fromFlag;
      else if (colon >= 0) {
        password = user.slice(colon + 1);
        user = user.slice(0, colon);
        if (user.length === 0) return ctx.fail(ExitCode.BadArgs, 'empty user name is not allowed');
      } else if (flags.interactive === false) password = await scanWord(ctx);
      else {
        const asked = await askPassword(ctx, user);
        if (typeof asked !== 'string') return ctx.fail(asked[0], asked[1]);
        password = asked;
      }
    }
    return callAndPrint(ctx, (c) => c.auth.userAdd(user, password, { noPassword }), (p, r) => p.done(`User ${user} created`, r.header));
  },
};
