/**
 * `/v2/auth/users[/<name>]` (etcd 3.4's baseUsers / forUser).
 *
 * - GET list (GET only, else 405): `{"users":[{"user":…,"roles":[<role>…]}…]}`, `null` when
 *   none; roles that no longer exist are left out;
 * - GET one: `{"user":…,"roles":[<role>…]}`; a missing role is an error here;
 * - PUT one: the body's `user` must be the URL's name (400); with `grant`/`revoke` it is an
 *   update (400 if it also names `roles`); else with `roles` a create (200), else create or
 *   update (201 when created, 200 when updated). The answer is the record without password;
 * - DELETE one: 200, empty.
 */
import type { Context } from 'koa';
import type { V2Role, V2User } from '../../../v2auth/types.js';
import { admit, invalidPath, sendEmpty, type AuthHandlerDeps, type Subject } from './auth-admit.js';
import { readUser, sendBody, sendFailure, sendMessage, userJson, userWithRolesJson } from './auth-wire.js';

export function usersHandler(deps: AuthHandlerDeps): (ctx: Context, s: Subject) => Promise<void> {
  const store = deps.access.store;

  const list = async (ctx: Context): Promise<void> => {
    if (!(await admit(ctx, deps, ['GET']))) return;
    const names = await store.allUsers();
    if (!names.ok) return sendFailure(ctx, names.error);
    const entries: string[] = [];
    for (const name of names.value) {
      const u = await store.getUser(name);
      if (!u.ok) return sendFailure(ctx, u.error);
      const roles: V2Role[] = [];
      for (const r of u.value.roles ?? []) {
        const role = await store.getRole(r);
        if (role.ok) roles.push(role.value);
      }
      entries.push(userWithRolesJson(u.value.user, roles));
    }
    sendBody(ctx, 200, `{"users":${entries.length === 0 ? 'null' : `[${entries.join(',')}]`}}\n`);
  };

  const getOne = async (ctx: Context, name: string): Promise<void> => {
    const u = await store.getUser(name);
    if (!u.ok) return sendFailure(ctx, u.error);
    const roles: V2Role[] = [];
    for (const r of u.value.roles ?? []) {
      const role = await store.getRole(r);
      if (!role.ok) return sendFailure(ctx, role.error);
      roles.push(role.value);
    }
    sendBody(ctx, 200, `${userWithRolesJson(u.value.user, roles)}\n`);
  };

  const put = async (ctx: Context, name: string): Promise<void> => {
    const u = await readUser(ctx);
    if (u === undefined) return;
    if (u.user !== name) return sendMessage(ctx, 400, 'User JSON name does not match the name in the URL');
    let out: V2User;
    let created = false;
    if ((u.grant ?? []).length === 0 && (u.revoke ?? []).length === 0) {
      if ((u.roles ?? []).length !== 0) {
        const r = await store.createUser(u);
        if (!r.ok) return sendFailure(ctx, r.error);
        out = r.value;
      } else {
        const r = await store.createOrUpdateUser(u);
        if (!r.ok) return sendFailure(ctx, r.error);
        ({ user: out, created } = r.value);
      }
    } else {
      if ((u.roles ?? []).length !== 0) return sendMessage(ctx, 400, 'User JSON contains both roles and grant/revoke');
      const r = await store.updateUser(u);
      if (!r.ok) return sendFailure(ctx, r.error);
      out = r.value;
    }
    sendBody(ctx, created ? 201 : 200, `${userJson({ ...out, password: '' })}\n`);
  };

  return async (ctx, s) => {
    if (s.kind === 'invalid') return invalidPath(ctx);
    if (s.kind === 'list') return list(ctx);
    if (!(await admit(ctx, deps, ['GET', 'PUT', 'DELETE']))) return;
    if (ctx.method === 'GET') return getOne(ctx, s.name);
    if (ctx.method === 'PUT') return put(ctx, s.name);
    const r = await store.deleteUser(s.name);
    return r.ok ? sendEmpty(ctx) : sendFailure(ctx, r.error);
  };
}
