/** `role grant-permission [--prefix|--from-key] <role> <read|write|readwrite> <key> [endkey]`. */
import { Permission_Type } from '../../../proto/gen/etcd/auth.js';
import { flagBool, type CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { callAndPrint } from '../auth/shared.js';
import { permRange } from './perm-range.js';

const TYPES: Readonly<Record<string, Permission_Type>> = { READ: Permission_Type.READ, WRITE: Permission_Type.WRITE, READWRITE: Permission_Type.READWRITE };

export const roleGrantPermissionCommand: CommandSpec = {
  path: ['role', 'grant-permission'],
  usage: '[options] <role name> <permission type> <key> [endkey]',
  summary: 'Grants a key to a role',
  options: (cmd) => {
    cmd.option('--prefix', 'grant a prefix permission');
    cmd.option('--from-key', 'grant a permission of keys that are greater than or equal to the given key using byte compare');
  },
  run: async (ctx, args, flags) => {
    if (args.length < 3) return ctx.fail(ExitCode.BadArgs, 'role grant command requires role name, permission type, and key [endkey] as its argument');
    const permType = TYPES[args[1]!.toUpperCase()];
    if (permType === undefined) return ctx.fail(ExitCode.BadArgs, `invalid permission type: ${args[1]}`);
    const range = permRange(args.slice(2), flagBool(flags, 'prefix'), flagBool(flags, 'fromKey'));
    if ('error' in range) return ctx.fail(ExitCode.BadArgs, range.error);
    const role = args[0]!;
    return callAndPrint(ctx, (c) => c.auth.roleGrantPermission(role, { permType, ...range }), (p, r) => p.done(`Role ${role} updated`, r.header));
  },
};
