/**
 * Test helpers for the HTTP side: a fake Services (every call fails with Internal unless a
 * test overrides it), a fake error table, a served app on 127.0.0.1:0 and a tiny HTTP client.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Registry } from 'prom-client';
import { fail, type DomainError, type Result } from '../../../server/errors/domain-error.js';
import type {
  ClusterService,
  KvService,
  LeaseService,
  MaintenanceService,
  MemberInfo,
  Services,
  WatchService,
} from '../../../server/api/services.js';
import { createHttpApp, type HttpAppOptions } from '../../../server/api/http/app.js';

const notFaked = async <T>(): Promise<Result<T>> => fail<T>({ kind: 'Internal', message: 'not faked' });

export interface FakeParts {
  kv?: Partial<KvService>;
  watch?: Partial<WatchService>;
  lease?: Partial<LeaseService>;
  cluster?: Partial<ClusterService>;
  maintenance?: Partial<MaintenanceService>;
  info?: Partial<MemberInfo>;
}

export function fakeServices(parts: FakeParts = {}): Services {
  return {
    kv: {
      range: notFaked,
      put: notFaked,
      deleteRange: notFaked,
      txn: notFaked,
      compact: notFaked,
      ...parts.kv,
    },
    watch: {
      openWatch: () => ({ request: () => undefined, close: () => undefined }),
      ...parts.watch,
    },
    lease: {
      leaseGrant: notFaked,
      leaseRevoke: notFaked,
      keepAlive: notFaked,
      leaseTimeToLive: notFaked,
      leaseLeases: notFaked,
      ...parts.lease,
    },
    cluster: {
      memberAdd: notFaked,
      memberRemove: notFaked,
      memberUpdate: notFaked,
      memberList: notFaked,
      memberPromote: notFaked,
      ...parts.cluster,
    },
    maintenance: {
      alarm: notFaked,
      status: notFaked,
      defragment: notFaked,
      hash: notFaked,
      hashKV: notFaked,
      snapshot: async function* () {
        /* no chunks */
      },
      moveLeader: notFaked,
      ...parts.maintenance,
    },
    info: {
      serverVersion: '3.4.45',
      clusterVersion: () => '3.4.0',
      health: async () => ({ healthy: true, reason: '' }),
      ...parts.info,
    },
  };
}

/** A small stand-in for the gRPC edge's table. */
export function fakeToStatus(e: DomainError): { code: number; message: string } {
  switch (e.kind) {
    case 'Compacted':
      return { code: 11, message: 'etcdserver: mvcc: required revision has been compacted' };
    case 'NoLeader':
      return { code: 14, message: 'etcdserver: no leader' };
    case 'LeaseNotFound':
      return { code: 5, message: 'etcdserver: requested lease not found' };
    case 'LeaseExists':
      return { code: 9, message: 'etcdserver: lease already exists' };
    case 'Unimplemented':
      return { code: 12, message: `unknown method ${e.method}` };
    case 'Internal':
      return { code: 2, message: e.message };
    default:
      return { code: 2, message: e.kind };
  }
}

export interface Served {
  readonly port: number;
  readonly registry: Registry;
  close(): Promise<void>;
}

/**
 * Serves the app on a plain HTTP server. `halfOpen`: a client's FIN leaves the request running,
 * as on the member's client port (transport/in-process-routes.ts), instead of Node's default abort.
 */
export async function serve(services: Services, options: Partial<HttpAppOptions> = {}, halfOpen = false): Promise<Served> {
  const registry = options.registry ?? new Registry();
  const app = createHttpApp({
    services,
    registry,
    gatewayPrefix: '/v3',
    gatewayAliases: ['/v3beta'],
    toStatus: fakeToStatus,
    logger: pino({ level: 'silent' }),
    ...options,
  });
  const handler = app.callback();
  const server: Server = createServer((req, res) => {
    void handler(req, res);
  });
  if (halfOpen) (server as unknown as { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    registry,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export function call(port: number, method: string, path: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const post = (port: number, path: string, body?: string): Promise<Reply> => call(port, 'POST', path, body);

export const b64 = (s: string): string => Buffer.from(s).toString('base64');
