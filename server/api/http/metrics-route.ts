/**
 * `/metrics` (ETCD-FACTS §5.3): the Prometheus text exposition of ONE given registry (never
 * prom-client's global one), with the registry's content type.
 */
import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';

export function metricsHandler(registry: Registry): Middleware {
  return async (ctx) => {
    const text = await registry.metrics();
    ctx.status = 200;
    ctx.type = registry.contentType;
    ctx.body = text;
  };
}
