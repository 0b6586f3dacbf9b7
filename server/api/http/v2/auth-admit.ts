/**
 * What every `/v2/auth/*` handler shares: its dependencies, the method check (405 plain text
 * with `Allow`) then the access check (401 `Insufficient credentials`) that open each answer,
 * and the small fixed answers.
 */
import type { Context } from 'koa';
import { sendMethodNotAllowed } from '../plain-http-error.js';
import { hasRootAccess, hasWriteRootAccess, type V2AuthAccess } from './auth-access.js';
import { sendBody, sendMessage, sendNoAuth } from './auth-wire.js';

export interface AuthHandlerDeps {
  readonly access: V2AuthAccess;
  readonly clusterIdHex: string;
}

export type Subject = { readonly kind: 'list' } | { readonly kind: 'one'; readonly name: string } | { readonly kind: 'invalid' };

/** The method check (405) then root access (401); true when the request may go on. */
export async function admit(ctx: Context, deps: AuthHandlerDeps, allowed: readonly string[], writesOnly = false): Promise<boolean> {
  if (!allowed.includes(ctx.method)) {
    sendMethodNotAllowed(ctx, allowed.join(','));
    return false;
  }
  const granted = writesOnly ? await hasWriteRootAccess(deps.access, ctx.req) : await hasRootAccess(deps.access, ctx.req);
  if (!granted) {
    sendNoAuth(ctx);
    return false;
  }
  ctx.set('X-Etcd-Cluster-ID', deps.clusterIdHex);
  ctx.set('Content-Type', 'application/json');
  return true;
}

export function invalidPath(ctx: Context): void {
  sendMessage(ctx, 400, 'Invalid path');
}

export function sendEmpty(ctx: Context): void {
  sendBody(ctx, 200, '');
}
