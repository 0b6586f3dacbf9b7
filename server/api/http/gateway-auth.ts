/**
 * Auth for the JSON gateway: as etcd's gateway forwards the HTTP header `Authorization` as
 * the gRPC metadata `authorization`, every gateway call made while serving a request is
 * checked by the auth gate (server/auth/gate.ts) with that header as the caller's token.
 *
 * Shape: `wrapHandler` runs each HTTP request inside an AsyncLocalStorage scope holding its
 * caller (while auth is enabled, or when the request carries a token: etcd resolves a token
 * even then; otherwise the handler runs as is); `guard` gives the gateway the member's services
 * as the caller of the current scope sees them (api/caller-services.ts, the same checks the gRPC
 * Lock and Election servers apply to their inner calls).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthGate, Caller } from '../../auth/gate.js';
import { callerServices } from '../caller-services.js';
import type { Services } from '../services.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface GatewayAuth {
  wrapHandler(handler: Handler): Handler;
  guard(services: Services): Services;
}

export function gatewayAuth(gate: AuthGate): GatewayAuth {
  const callers = new AsyncLocalStorage<Caller>();
  return {
    wrapHandler: (handler) => (req, res) => {
      const token = req.headers.authorization;
      const hasToken = token !== undefined && token !== '';
      if (!gate.active() && !hasToken) return handler(req, res);
      return callers.run({ token: hasToken ? token : undefined }, () => handler(req, res));
    },
    guard: (s) => callerServices(gate, s, () => callers.getStore()),
  };
}
