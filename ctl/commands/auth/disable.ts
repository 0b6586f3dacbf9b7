/** `auth disable`: turns authentication off. */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';

export const authDisableCommand: CommandSpec = {
  path: ['auth', 'disable'],
  usage: '',
  summary: 'Disables authentication',
  run: async (ctx, args) => {
    if (args.length !== 0) return ctx.fail(ExitCode.BadArgs, 'auth disable command does not accept any arguments');
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.auth.disable();
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    ctx.io.stdout.write('Authentication Disabled\n');
    return ExitCode.Success;
  },
};
