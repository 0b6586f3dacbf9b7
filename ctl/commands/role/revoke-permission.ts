/** `role revoke-permission [--prefix|--from-key] <role> <key> [endkey]`. */
import { flagBool, type CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { callAndPrint } from '../auth/shared.js';
import { permRange } from './perm-range.js';

function sentence(role: string, key: string, end: Buffer): string {
  if (end.length === 0) return `Permission of key ${key} is revoked from role ${role}`;
  if (end.length === 1 && end[0] === 0) return `Permission of range [${key}, <open ended> is revoked from role ${role}`;
  return `Permission of range [${key}, ${end.toString('utf8')}) is revoked from role ${role}`;
}

export const roleRevokePermissionCommand: CommandSpec = {
  path: ['role', 'revoke-permission'],
  usage: '<role name> <key> [endkey]',
  summary: 'Revokes a key from a role',
  options: (cmd) => {
    cmd.option('--prefix', 'revoke a prefix permission');
    cmd.option('--from-key', 'revoke a permission of keys that are greater than or equal to the given key using byte compare');
  },
  run: async (ctx, args, flags) => {
    if (args.length < 2) return ctx.fail(ExitCode.BadArgs, 'role revoke-permission command requires role name and key [endkey] as its argument');
    const range = permRange(args.slice(1), flagBool(flags, 'prefix'), flagBool(flags, 'fromKey'));
    if ('error' in range) return ctx.fail(ExitCode.BadArgs, range.error);
    const role = args[0]!;
    return callAndPrint(
      ctx,
      (c) => c.auth.roleRevokePermission(role, range.key, range.rangeEnd),
      (p, r) => p.done(sentence(role, args[1]!, range.rangeEnd), r.header),
    );
  },
};
