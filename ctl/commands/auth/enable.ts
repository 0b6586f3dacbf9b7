/**
 * `auth enable`: turns authentication on. As etcdctl: when the server answers that root lacks
 * the root role, it adds role `root`, grants it to `root` and tries again.
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';

const ROOT_ROLE_MISSING = 'etcdserver: root user does not have root role';

export const authEnableCommand: CommandSpec = {
  path: ['auth', 'enable'],
  usage: '',
  summary: 'Enables authentication',
  run: async (ctx, args) => {
    if (args.length !== 0) return ctx.fail(ExitCode.BadArgs, 'auth enable command does not accept any arguments');
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    for (;;) {
      const r = await client.auth.enable();
      if (r.ok) break;
      if (r.error.message !== ROOT_ROLE_MISSING) return ctx.fail(ExitCode.Error, r.error.message);
      const add = await client.auth.roleAdd('root');
      if (!add.ok) return ctx.fail(ExitCode.Error, add.error.message);
      const grant = await client.auth.userGrantRole('root', 'root');
      if (!grant.ok) return ctx.fail(ExitCode.Error, grant.error.message);
    }
    ctx.io.stdout.write('Authentication Enabled\n');
    return ExitCode.Success;
  },
};
