/**
 * The v2 HTTP API (served by etcd 3.3/3.4 with `--enable-v2`) on one @koa/router:
 * `/v2/keys[/…]`, `/v2/members[/…]`, `/v2/machines`, and with `auth` the v2 auth API
 * `/v2/auth/…` and its checks on keys and members. Mount its `routes()` on the client port's
 * app; paths outside these are left to the app.
 *
 * Contract: handlers only talk to the member through the port (port.ts); the wall clock
 * (for `ttl` → expiration) and the text of replication failures are injectable.
 */
import { Router } from '@koa/router';
import type { DomainError } from '../../../errors/domain-error.js';
import { toStatus } from '../../grpc/error-table.js';
import type { V2AuthAccess } from './auth-access.js';
import { authHandler } from './auth-handler.js';
import { keysHandler } from './keys-handler.js';
import { machinesHandler, membersHandler } from './members-handler.js';
import type { V2Port } from './port.js';

export interface V2RouterOptions {
  /** Wall clock in ms; default Date.now. */
  readonly now?: () => number;
  /** etcd's text for a failure to replicate; default: the gRPC edge's message table. */
  readonly describe?: (e: DomainError) => string;
  /** The v2 auth store and how to know a request's user; without it, no v2 auth. */
  readonly auth?: V2AuthAccess;
}

export function createV2Router(port: V2Port, options: V2RouterOptions = {}): Router {
  const router = new Router();
  const keys = keysHandler({ port, now: options.now ?? Date.now, describe: options.describe ?? ((e) => toStatus(e).message), access: options.auth });
  const members = membersHandler(port, options.auth);
  router.all(/^\/v2\/keys(?:\/.*)?$/, keys);
  router.all(/^\/v2\/members(?:\/.*)?$/, members);
  router.all('/v2/machines', machinesHandler(port));
  if (options.auth !== undefined) router.all(/^\/v2\/auth\/.*$/, authHandler({ access: options.auth, clusterIdHex: port.clusterIdHex }));
  return router;
}
