/**
 * `/v2/auth/*` (etcd 3.4's v2 auth API, served with `--enable-v2`): `enable`, `users[/<name>]`,
 * `roles[/<name>]`. The records and their rules live in server/v2auth; this is the HTTP edge.
 *
 * Order of checks, as in etcd: Go's mux (an unclean path → 301; a path it does not route →
 * left to the app's 404); the auth capability of the cluster version (500 `Not capable of
 * accessing auth feature during rolling upgrades.` until the version is known); the method (405 plain text with `Allow`); access (root, or for reads
 * of `enable` nobody: 401 `Insufficient credentials`); then `X-Etcd-Cluster-ID` and
 * `Content-Type: application/json` on every answer; then the operation. A path with more than
 * one name below `users/` or `roles/` is 400 `Invalid path`. Successful answers end with a
 * newline; DELETE and enable/disable answer 200 with an empty body.
 */
import type { Context, Middleware, Next } from 'koa';
import { sendPlainError } from '../plain-http-error.js';
import { admit, sendEmpty, type AuthHandlerDeps, type Subject } from './auth-admit.js';
import { rolesHandler } from './auth-roles.js';
import { usersHandler } from './auth-users.js';
import { sendBody, sendFailure, sendMessage } from './auth-wire.js';
import { cleanPath } from '../../../v2store/path.js';
import { decodePath, muxCleanPath, redirectToClean } from './go-path.js';

export const AUTH_PATH = '/v2/auth';

export function authHandler(deps: AuthHandlerDeps): Middleware {
  const users = usersHandler(deps);
  const roles = rolesHandler(deps);
  return async (ctx: Context, next: Next) => {
    const decoded = decodePath(ctx.path);
    if (decoded === undefined) return sendPlainError(ctx, 400, 'Bad Request');
    const clean = muxCleanPath(decoded);
    if (clean !== decoded) return redirectToClean(ctx, clean);
    const sub = decoded.slice(AUTH_PATH.length);
    const routed = sub === '/enable' || /^\/(users|roles)(\/|$)/.test(sub);
    if (!routed) return next();
    if (!deps.access.capable()) return sendMessage(ctx, 500, 'Not capable of accessing auth feature during rolling upgrades.');
    if (sub === '/enable') return enableDisable(ctx, deps);
    for (const [name, handle] of [['users', users], ['roles', roles]] as const) {
      if (sub === `/${name}`) return handle(ctx, { kind: 'list' });
      if (sub.startsWith(`/${name}/`)) return handle(ctx, subject(sub));
    }
    return next();
  };
}

/** etcd's split of the cleaned sub-path `/<kind>[/<name>]`. */
function subject(sub: string): Subject {
  const pieces = cleanPath(sub).split('/');
  if (pieces.length === 2) return { kind: 'list' };
  if (pieces.length !== 3) return { kind: 'invalid' };
  return { kind: 'one', name: pieces[2] as string };
}

async function enableDisable(ctx: Context, deps: AuthHandlerDeps): Promise<void> {
  if (!(await admit(ctx, deps, ['GET', 'PUT', 'DELETE'], true))) return;
  const store = deps.access.store;
  if (ctx.method === 'GET') return sendBody(ctx, 200, `{"enabled":${store.enabled()}}\n`);
  const r = ctx.method === 'PUT' ? await store.enable() : await store.disable();
  return r.ok ? sendEmpty(ctx) : sendFailure(ctx, r.error);
}
