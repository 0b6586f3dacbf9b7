/**
 * The whole client port as main.ts wires it: a grpc-js server + the koa app + one listener.
 * A gRPC call, /version and a gateway call share the port; close() ends an open gateway watch.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { ServedServices } from '../../support/served-services.js';
import { request } from 'node:http';
import pino from 'pino';
import { Registry } from 'prom-client';
import {
  HealthCheckResponse_ServingStatus,
  HealthClient,
  HealthService,
  type HealthCheckRequest,
  type HealthCheckResponse,
} from '../../../proto/gen/etcd/health.js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { ok } from '../../../server/errors/domain-error.js';
import { createHttpApp } from '../../../server/api/http/app.js';
import { listenClient } from '../../../server/transport/client-listener.js';
import { fakeServices, fakeToStatus, post } from '../http/helpers.js';

void test('gRPC, /version and the gateway on one port; close() ends open streams', async () => {
  const logger = pino({ level: 'silent' });
  const grpcServer = new ServedServices();
  grpcServer.addService(HealthService, {
    check: (_c: grpc.ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>, cb: grpc.sendUnaryData<HealthCheckResponse>) =>
      cb(null, { status: HealthCheckResponse_ServingStatus.SERVING }),
    watch: (c: grpc.ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => {
      c.end();
    },
  });
  let watchClosed!: () => void;
  const watchClosedP = new Promise<void>((resolve) => (watchClosed = resolve));
  const services = fakeServices({
    kv: { put: async () => ok(pb.PutResponse.fromJSON({ header: { revision: '2' } })) },
    watch: {
      openWatch: (send) => ({
        request: () => send(pb.WatchResponse.fromJSON({ created: true })),
        close: () => watchClosed(),
      }),
    },
  });
  const app = createHttpApp({ services, registry: new Registry(), gatewayPrefix: '/v3', toStatus: fakeToStatus, logger });
  const listener = await listenClient(new URL('http://127.0.0.1:0'), grpcServer, app.callback(), logger, { closeGraceMs: 100 });
  const port = listener.address.port;

  const client = new HealthClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const health = await new Promise<HealthCheckResponse>((resolve, reject) =>
    client.check({ service: '' }, (err, resp) => (err ? reject(err) : resolve(resp))),
  );
  client.close();
  assert.equal(health.status, HealthCheckResponse_ServingStatus.SERVING);

  const version = await new Promise<string>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/version' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
  assert.equal(version, '{"etcdserver":"3.4.45","etcdcluster":"3.4.0"}');
  assert.equal((await post(port, '/v3/kv/put', '{}')).body, '{"header":{"revision":"2"}}');

  // an open watch stream is cut by close()
  const ended = new Promise<void>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/v3/watch', agent: false }, (res) => {
      res.on('data', () => void listener.close());
      res.on('close', () => resolve());
    });
    req.on('error', () => resolve());
    req.on('timeout', () => reject(new Error('timeout')));
    req.end('{"create_request":{"key":"YQ=="}}');
  });
  await ended;
  await listener.close();
  await watchClosedP; // the session is closed once the response is gone
  grpcServer.forceShutdown();
});
