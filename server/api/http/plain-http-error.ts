/**
 * Plain-text HTTP errors shaped like Go's `http.Error` (what etcd's own handlers send for a
 * wrong method or an unknown path): `Content-Type: text/plain; charset=utf-8`,
 * `X-Content-Type-Options: nosniff`, body = text + "\n".
 */
import type { Context } from 'koa';

export function sendPlainError(ctx: Context, status: number, text: string): void {
  ctx.status = status;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `${text}\n`;
}

/** 405; with `Allow` when given (etcd's own handlers send it, the gateway does not). */
export function sendMethodNotAllowed(ctx: Context, allowed?: string): void {
  if (allowed !== undefined) ctx.set('Allow', allowed);
  sendPlainError(ctx, 405, 'Method Not Allowed');
}
