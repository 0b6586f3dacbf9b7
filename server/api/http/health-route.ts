/**
 * `/health` (ETCD-FACTS §5.2). The body shape differs per version, so it is a parameter
 * (`HealthBody`); the default is the 3.3/3.4 shape `{"health":"true"}` / `{"health":"false"}`.
 *
 * Contract: GET only (else 405, `Allow: GET`); healthy → 200 with the body as is (etcd sets no
 * Content-Type, Go sniffs text/plain); unhealthy → 503 written like Go's `http.Error`
 * (`text/plain; charset=utf-8`, nosniff, body + "\n"). `onChecked` is told every outcome
 * (for the health_success / health_failures counters).
 */
import type { Middleware } from 'koa';
import type { MemberInfo } from '../services.js';
import { sendMethodNotAllowed, sendPlainError } from './plain-http-error.js';

export type HealthBody = (healthy: boolean, reason: string) => string;

/** etcd 3.3 and 3.4: `{"health":"true"}`. */
export const healthBody34: HealthBody = (healthy) => JSON.stringify({ health: healthy ? 'true' : 'false' });

/** etcd 3.5: `{"health":"true","reason":""}`. */
export const healthBody35: HealthBody = (healthy, reason) =>
  JSON.stringify({ health: healthy ? 'true' : 'false', reason });

export interface HealthRouteOptions {
  readonly body?: HealthBody;
  readonly onChecked?: (healthy: boolean) => void;
}

export function healthHandler(info: MemberInfo, options: HealthRouteOptions = {}): Middleware {
  const body = options.body ?? healthBody34;
  return async (ctx) => {
    if (ctx.method !== 'GET') return sendMethodNotAllowed(ctx, 'GET');
    const { healthy, reason } = await info.health();
    options.onChecked?.(healthy);
    if (!healthy) return sendPlainError(ctx, 503, body(false, reason));
    ctx.status = 200;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = body(true, reason);
  };
}
