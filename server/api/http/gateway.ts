/**
 * The JSON gateway: every route of ETCD-FACTS §4.1 under one prefix, on a @koa/router.
 *
 * Contract: unary routes (gateway-routes.ts, gateway-auth-routes.ts, gateway-election.ts, gateway-lock.ts), the streams (`/watch`,
 * `/lease/keepalive`, `/maintenance/snapshot`, `/election/observe`) and the Unimplemented ones are registered for every method (each
 * handler answers non-POST with 405); unknown paths under the prefix are left to the app
 * (404), as are the `absent` paths (routes a version does not serve). Prefix aliases and
 * redirects are applied by `prefixRewrite` before this router. With `deps.streams`, every
 * route's call holds one of `--max-concurrent-streams` slots (gateway-stream-limit.ts).
 */
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { GatewayDeps } from './gateway-deps.js';
import { keepAliveHandler } from './gateway-keepalive.js';
import { gatewayStreamLimit } from './gateway-stream-limit.js';
import { normalizePrefix } from './gateway-prefix.js';
import { UNARY_ROUTES } from './gateway-routes.js';
import { AUTH_ROUTES } from './gateway-auth-routes.js';
import { ELECTION_ROUTES, observeHandler } from './gateway-election.js';
import { LOCK_ROUTES } from './gateway-lock.js';
import { snapshotHandler } from './gateway-snapshot.js';
import { unaryHandler, unimplementedHandler } from './gateway-unary.js';
import { UNIMPLEMENTED_ROUTES } from './gateway-unimplemented.js';
import { watchHandler } from './gateway-watch.js';

export function createGatewayRouter(prefix: string, deps: GatewayDeps, absent: readonly string[] = []): Router {
  const router = new Router({ prefix: normalizePrefix(prefix) });
  const limit = deps.streams === undefined ? undefined : gatewayStreamLimit(deps.streams);
  const add = (path: string, handler: Middleware): void => {
    if (absent.includes(path)) return;
    if (deps.streams === undefined) router.all(path, handler);
    else router.all(path, limit!, handler);
  };
  for (const route of [...UNARY_ROUTES, ...AUTH_ROUTES, ...ELECTION_ROUTES, ...LOCK_ROUTES]) add(route.path, unaryHandler(route, deps));
  for (const route of UNIMPLEMENTED_ROUTES) add(route.path, unimplementedHandler(route, deps));
  add('/watch', watchHandler(deps));
  add('/lease/keepalive', keepAliveHandler(deps));
  add('/maintenance/snapshot', snapshotHandler(deps));
  add('/election/observe', observeHandler(deps));
  return router;
}
