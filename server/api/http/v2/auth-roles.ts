/**
 * `/v2/auth/roles[/<name>]` (etcd 3.4's baseRoles / forRole).
 *
 * - GET list (GET only, else 405): `{"roles":[<role>…]}`, the built-in root role included;
 * - GET one: the role; 404 when missing;
 * - PUT one: the body's `role` must be the URL's name (400); without `grant`/`revoke` it is a
 *   create (201, the body echoed); with them an update (400 if `permissions` is given too; 200,
 *   the merged role);
 * - DELETE one: 200, empty. The root role cannot be created, changed or deleted (403).
 */
import type { Context } from 'koa';
import { permissionsEmpty } from '../../../v2auth/types.js';
import { admit, invalidPath, sendEmpty, type AuthHandlerDeps, type Subject } from './auth-admit.js';
import { readRole, roleJson, sendBody, sendFailure, sendMessage } from './auth-wire.js';

export function rolesHandler(deps: AuthHandlerDeps): (ctx: Context, s: Subject) => Promise<void> {
  const store = deps.access.store;

  const list = async (ctx: Context): Promise<void> => {
    if (!(await admit(ctx, deps, ['GET']))) return;
    const names = await store.allRoles();
    if (!names.ok) return sendFailure(ctx, names.error);
    const roles: string[] = [];
    for (const name of names.value) {
      const r = await store.getRole(name);
      if (!r.ok) return sendFailure(ctx, r.error);
      roles.push(roleJson(r.value));
    }
    sendBody(ctx, 200, `{"roles":${roles.length === 0 ? 'null' : `[${roles.join(',')}]`}}\n`);
  };

  const put = async (ctx: Context, name: string): Promise<void> => {
    const role = await readRole(ctx);
    if (role === undefined) return;
    if (role.role !== name) return sendMessage(ctx, 400, 'Role JSON name does not match the name in the URL');
    if (permissionsEmpty(role.grant) && permissionsEmpty(role.revoke)) {
      const r = await store.createRole(role);
      return r.ok ? sendBody(ctx, 201, `${roleJson(role)}\n`) : sendFailure(ctx, r.error);
    }
    if (!permissionsEmpty(role.permissions)) return sendMessage(ctx, 400, 'Role JSON contains both permissions and grant/revoke');
    const r = await store.updateRole(role);
    return r.ok ? sendBody(ctx, 200, `${roleJson(r.value)}\n`) : sendFailure(ctx, r.error);
  };

  return async (ctx, s) => {
    if (s.kind === 'invalid') return invalidPath(ctx);
    if (s.kind === 'list') return list(ctx);
    if (!(await admit(ctx, deps, ['GET', 'PUT', 'DELETE']))) return;
    if (ctx.method === 'GET') {
      const r = await store.getRole(s.name);
      return r.ok ? sendBody(ctx, 200, `${roleJson(r.value)}\n`) : sendFailure(ctx, r.error);
    }
    if (ctx.method === 'PUT') return put(ctx, s.name);
    const r = await store.deleteRole(s.name);
    return r.ok ? sendEmpty(ctx) : sendFailure(ctx, r.error);
  };
}
