/** `user get <name> [--detail]`: the user's roles; with --detail each role's permissions. */
import { flagBool, type CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { authPrinter } from '../auth/shared.js';

export const userGetCommand: CommandSpec = {
  path: ['user', 'get'],
  usage: '<user name> [options]',
  summary: 'Gets detailed information of a user',
  options: (cmd) => {
    cmd.option('--detail', 'Show permissions of roles granted to the user');
  },
  run: async (ctx, args, flags) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'user get command requires user name as its argument');
    const name = args[0]!;
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.auth.userGet(name);
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    const p = authPrinter(ctx);
    if (!flagBool(flags, 'detail')) return ctx.printed(p.userGet(name, r.value));
    ctx.io.stdout.write(`User: ${name}\n`);
    for (const role of r.value.roles) {
      ctx.io.stdout.write('\n');
      const g = await client.auth.roleGet(role);
      if (!g.ok) return ctx.fail(ExitCode.Error, g.error.message);
      const out = p.roleGet(role, g.value);
      if (out !== undefined) return ctx.printed(out);
    }
    return ExitCode.Success;
  },
};
