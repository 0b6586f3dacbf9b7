/**
 * The HTTP app of `--listen-metrics-urls` listeners (ETCD-FACTS §5.3): only `/metrics` and
 * `/health`, as on the client port (same registry, same health body and counters); any other
 * path is Go's mux 404 (`404 page not found`). No gateway, no `/version`, no CORS.
 */
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { MemberInfo } from '../services.js';
import { healthHandler, type HealthBody } from './health-route.js';
import { metricsHandler } from './metrics-route.js';
import { sendPlainError } from './plain-http-error.js';

export interface MetricsAppOptions {
  readonly registry: Registry;
  readonly info: MemberInfo;
  readonly logger: Logger;
  /** `/health` body per version (as the client port's). */
  readonly healthBody?: HealthBody;
  readonly onHealthChecked?: (healthy: boolean) => void;
}

export function createMetricsApp(options: MetricsAppOptions): Koa {
  const logger = options.logger.child({ component: 'metrics-http' });
  const app = new Koa();
  app.on('error', (err: unknown) => logger.debug({ err }, 'HTTP response error'));
  const health = healthHandler(options.info, { body: options.healthBody, onChecked: options.onHealthChecked });
  const metrics = metricsHandler(options.registry);
  app.use(async (ctx, next) => {
    try {
      if (ctx.path === '/metrics') return await metrics(ctx, next);
      if (ctx.path === '/health') return await health(ctx, next);
    } catch (err) {
      logger.error({ err, path: ctx.path }, 'HTTP handler failed');
      if (ctx.respond !== false && !ctx.headerSent) sendPlainError(ctx, 500, 'Internal Server Error');
      return;
    }
    sendPlainError(ctx, 404, '404 page not found');
  });
  return app;
}
