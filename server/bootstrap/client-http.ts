/**
 * The member's HTTP handler on the client port: the koa app (gateway, /health, /version,
 * /metrics, v2 when enabled) of the cluster version's release line, rebuilt when the cluster
 * version changes (`switchTo`), behind the gateway's auth wrapper and the fault barrier
 * (api/http/guarded-handler.ts: a request whose handling throws gets a 500, reported to
 * `onFault`).
 */
import type { IncomingMessage } from 'node:http';
import type { AuthGate } from '../auth/gate.js';
import { createHttpApp, type HttpAppOptions } from '../api/http/app.js';
import { gatewayAuth } from '../api/http/gateway-auth.js';
import { guardedHttpHandler } from '../api/http/guarded-handler.js';
import type { V2AuthAccess } from '../api/http/v2/auth-access.js';
import type { V2Port } from '../api/http/v2/port.js';
import { createV2Router } from '../api/http/v2/router.js';
import type { HttpHandler } from '../transport/client-listener.js';
import { MINOR_VERSIONS, type MinorVersion } from '../version/minor.js';
import { profileOf } from '../version/profile.js';

type GatewayFields = 'services' | 'gatewayPrefix' | 'gatewayAliases' | 'gatewayRedirects' | 'gatewayAbsentPaths';

export interface ClientHttpDeps {
  /** The app's options but for the services and the release line's gateway fields. */
  readonly app: Omit<HttpAppOptions, GatewayFields>;
  readonly services: HttpAppOptions['services'];
  readonly gate: AuthGate;
  /** The v2 API, when `--enable-v2`. */
  readonly v2?: V2Port;
  /** The v2 auth of the v2 API (one per member). */
  readonly v2Auth?: V2AuthAccess;
  /** The release line served first (the cluster version when known, else the member's). */
  readonly minor: string;
  readonly onFault: (err: unknown, req: IncomingMessage) => void;
}

export interface ClientHttp {
  readonly handler: HttpHandler;
  /** The cluster version changed: serve that line's interface (a line kvstore does not know is ignored). */
  switchTo(minor: string): void;
}

export function clientHttp(d: ClientHttpDeps): ClientHttp {
  const gatewayGate = gatewayAuth(d.gate);
  const appFor = (minor: string): HttpHandler => {
    const p = profileOf(minor as MinorVersion);
    const app = createHttpApp({
      ...d.app,
      services: gatewayGate.guard(d.services),
      gatewayPrefix: p.gatewayPrefix,
      gatewayAliases: p.gatewayAliases,
      gatewayRedirects: p.gatewayRedirects,
      gatewayAbsentPaths: p.gatewayAbsentPaths,
    });
    if (d.v2 !== undefined) app.use(createV2Router(d.v2, { auth: d.v2Auth }).routes());
    return app.callback();
  };
  const known = (minor: string): boolean => MINOR_VERSIONS.includes(minor as MinorVersion);
  let current = appFor(d.minor);
  return {
    handler: guardedHttpHandler(
      gatewayGate.wrapHandler((req, res) => current(req, res)),
      d.onFault,
    ),
    switchTo(minor) {
      if (known(minor)) current = appFor(minor);
    },
  };
}
