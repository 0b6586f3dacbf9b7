/**
 * The operator's probe and metrics endpoint (koa + @koa/router), on its own port:
 * - `GET /healthz` — liveness: 200 `ok` while every liveness check passes (default: none, so
 *   a process that answers is alive), else 500 with the failing checks;
 * - `GET /readyz` — readiness: 200 `ok` when every readiness check passes (main.ts wires "all
 *   informers synced"; leadership is deliberately not a check, so a standby replica is ready),
 *   else 503 with one line per failing check;
 * - `GET /metrics` — the Registry passed in, Prometheus text format;
 * - `GET /restore/<namespace>/<cluster>` — when given: a restore's snapshot for the cluster's init
 *   containers (kube-platform/restore-route.ts says who gets what).
 * - `GET /rehearsal/<namespace>/<pod>` — when given: the pre-upgrade snapshot for an upgrade
 *   rehearsal's scratch pod (kube-platform/rehearsal-route.ts).
 * `startHealthServer` resolves once listening (port 0 = any free port) with the bound URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { Router } from '@koa/router';
import type { Registry } from 'prom-client';

/** A named check; `undefined` = passing, a string = why it fails. */
export interface Check {
  readonly name: string;
  readonly check: () => string | undefined;
}

export interface HealthServerOptions {
  readonly host?: string;
  readonly port: number;
  readonly registry: Registry;
  readonly liveness?: readonly Check[];
  readonly readiness?: readonly Check[];
  /** `GET /restore/:namespace/:name` (kube-platform/restore-route.ts): a cluster's checked snapshot for its restore init containers. */
  readonly restore?: FileRoute;
  /** `GET /rehearsal/:namespace/:pod` (kube-platform/rehearsal-route.ts): the pre-upgrade snapshot for an upgrade rehearsal's scratch pod. */
  readonly rehearsal?: FileRoute;
}

/** A route answering one file to a bearer of the right token (or a status and message). */
export type FileRoute = (namespace: string, name: string, authorization: string | undefined) => Promise<{ readonly status: number; readonly message?: string; readonly size?: number; readonly open?: () => NodeJS.ReadableStream }>;

export interface HealthServer {
  /** `http://<host>:<port>` */
  readonly url: string;
  close(): Promise<void>;
}

function failing(checks: readonly Check[]): string[] {
  const out: string[] = [];
  for (const c of checks) {
    const why = c.check();
    if (why !== undefined) out.push(`[-]${c.name} failed: ${why}`);
  }
  return out;
}

/** The koa app (exported for tests that mount it elsewhere). */
export function healthApp(o: Omit<HealthServerOptions, 'host' | 'port'>): Koa {
  const router = new Router();
  const probe = (checks: readonly Check[], failStatus: number) => (ctx: Koa.Context) => {
    const failed = failing(checks);
    ctx.type = 'text/plain';
    ctx.status = failed.length === 0 ? 200 : failStatus;
    ctx.body = failed.length === 0 ? 'ok\n' : `${failed.join('\n')}\n`;
  };
  router.get('/healthz', probe(o.liveness ?? [], 500));
  router.get('/readyz', probe(o.readiness ?? [], 503));
  router.get('/metrics', async (ctx) => {
    ctx.type = o.registry.contentType;
    ctx.body = await o.registry.metrics();
  });
  const files: [string, FileRoute | undefined][] = [['/restore/:namespace/:name', o.restore], ['/rehearsal/:namespace/:name', o.rehearsal]];
  for (const [path, route] of files) {
    if (route === undefined) continue;
    router.get(path, async (ctx) => {
      const a = await route(ctx.params['namespace'] ?? '', ctx.params['name'] ?? '', ctx.get('authorization') || undefined);
      ctx.status = a.status;
      if (a.open === undefined) {
        ctx.type = 'text/plain';
        ctx.body = `${a.message ?? ''}\n`;
        return;
      }
      ctx.type = 'application/octet-stream';
      if (a.size !== undefined) ctx.length = a.size;
      ctx.body = a.open();
    });
  }
  const app = new Koa();
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

export async function startHealthServer(o: HealthServerOptions): Promise<HealthServer> {
  const handle = healthApp(o).callback(); // koa handles its own errors: the promise does not reject
  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });
  const host = o.host ?? '0.0.0.0';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shown}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(new Error('closing the health server', { cause: err })) : resolve()));
      }),
  };
}
