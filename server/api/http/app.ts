/**
 * The koa app of the client port's HTTP side: `/version`, `/health`, `/metrics` and the JSON
 * gateway under a configurable prefix (plus alias prefixes rewritten to it and redirect
 * prefixes answered with 307). Mount it with `app.callback()` on the client listener.
 *
 * Contract:
 * - no global state: the registry, logger and error table are the ones passed in;
 * - unknown paths: 404 like Go's mux (`404 page not found`), `Not Found` under the gateway
 *   prefix (grpc-gateway); a handler that throws is logged and answered with a plain 500;
 * - the body shape of `/health` is a parameter (defaults to the 3.4 shape);
 * - CORS headers for any origin on every response, OPTIONS answered 200 (etcd's default).
 */
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Services } from '../services.js';
import { allowAnyOrigin } from './cors.js';
import { createGatewayRouter } from './gateway.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_MESSAGE_BYTES } from './gateway-deps.js';
import { normalizePrefix, prefixRewrite, underPrefix } from './gateway-prefix.js';
import type { ToStatus } from './gateway-status.js';
import type { StreamSlots } from './stream-slots.js';
import { healthHandler, type HealthBody } from './health-route.js';
import { metricsHandler } from './metrics-route.js';
import { sendPlainError } from './plain-http-error.js';
import { versionHandler } from './version-route.js';
import { configLogHandler, type LogLevelControl } from './config-log-route.js';

export interface HttpAppOptions {
  readonly services: Services;
  /** The registry `/metrics` exposes. */
  readonly registry: Registry;
  /** Current gateway prefix, e.g. `/v3`. */
  readonly gatewayPrefix: string;
  /** Older prefixes served as the current one, e.g. `['/v3beta']`. */
  readonly gatewayAliases?: readonly string[];
  /** Older prefixes answered with a 307 to the current one. */
  readonly gatewayRedirects?: readonly string[];
  /** Gateway paths (under the prefix) not served by this version: 404, as unknown paths. */
  readonly gatewayAbsentPaths?: readonly string[];
  readonly toStatus: ToStatus;
  readonly logger: Logger;
  /** `/health` body per version (health-route.ts: healthBody34, healthBody35). */
  readonly healthBody?: HealthBody;
  /** Called with every `/health` outcome (for kvstore_server_health_success/failures). */
  readonly onHealthChecked?: (healthy: boolean) => void;
  /** Largest gateway request body / stream message in bytes. */
  readonly maxBodyBytes?: number;
  /** The gRPC receive limit gateway requests are measured against (default etcd's 2 MiB). */
  readonly maxMessageBytes?: number;
  /** etcd's default `--cors=*` headers and OPTIONS answers (cors.ts). Default true. */
  readonly cors?: boolean;
  /**
   * `--max-concurrent-streams` over the gateway's calls; one instance for the member, so a
   * rebuilt app (cluster version change) keeps counting the streams still open.
   */
  readonly gatewayStreams?: StreamSlots;
  /** Serves PUT /config/local/log when given. */
  readonly logLevel?: LogLevelControl;
}

export function createHttpApp(options: HttpAppOptions): Koa {
  const logger = options.logger.child({ component: 'http' });
  const prefix = normalizePrefix(options.gatewayPrefix);
  const app = new Koa();
  app.on('error', (err: unknown) => logger.debug({ err }, 'HTTP response error'));

  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      logger.error({ err, path: ctx.path, method: ctx.method }, 'HTTP handler failed');
      if (ctx.respond !== false && !ctx.headerSent) sendPlainError(ctx, 500, 'Internal Server Error');
      return;
    }
    if (ctx.respond === false || ctx.body !== undefined || ctx.status !== 404) return;
    sendPlainError(ctx, 404, underPrefix(ctx.path, prefix) !== undefined ? 'Not Found' : '404 page not found');
  });
  if (options.cors ?? true) app.use(allowAnyOrigin());
  app.use(prefixRewrite({ prefix, aliases: options.gatewayAliases, redirects: options.gatewayRedirects }));

  const gateway = createGatewayRouter(
    prefix,
    {
      services: options.services,
      toStatus: options.toStatus,
      logger,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      ...(options.gatewayStreams === undefined ? {} : { streams: options.gatewayStreams }),
    },
    options.gatewayAbsentPaths,
  );
  const info = options.services.info;
  const version = versionHandler(info);
  const health = healthHandler(info, { body: options.healthBody, onChecked: options.onHealthChecked });
  const metrics = metricsHandler(options.registry);
  const configLog = options.logLevel ? configLogHandler(options.logLevel, logger) : undefined;

  app.use(async (ctx, next) => {
    switch (ctx.path) {
      case '/version':
        return version(ctx, next);
      case '/health':
        return health(ctx, next);
      case '/metrics':
        return metrics(ctx, next);
      case '/config/local/log':
        return configLog ? configLog(ctx, next) : next();
      default:
        return next();
    }
  });
  app.use(gateway.routes());
  return app;
}
