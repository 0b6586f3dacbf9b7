/**
 * /v2/auth/* and the v2 auth checks on /v2/keys and /v2/members, in process: the v2 router on
 * an in-memory v2 store with a fake password hasher and a settable client certificate chain.
 * (Byte-for-byte comparison with etcd 3.4 is test/e2e/v2-auth.test.ts.)
 */
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Koa from 'koa';
import { createV2Router } from '../../../server/api/http/v2/router.js';
import type { V2AuthAccess } from '../../../server/api/http/v2/auth-access.js';
import { V2AuthStore } from '../../../server/v2auth/store.js';
import { createMemoryPort } from '../v2store/memory-port.js';

interface Reply {
  readonly status: number;
  readonly type: string | undefined;
  readonly body: string;
}

void describe('v2 auth over the v2 router', () => {
  const port = createMemoryPort();
  let capable = true;
  let chain: string[] = [];
  const store = new V2AuthStore(
    { read: (path) => port.read(path, { recursive: false, sorted: false }), propose: (req) => port.propose(req) },
    { hash: async (p) => `h:${p}`, compare: async (p, h) => h === `h:${p}` },
  );
  const access: V2AuthAccess = { store, clientCertAuth: true, commonNames: () => chain, capable: () => capable };
  const app = new Koa();
  app.use(createV2Router(port, { now: () => port.nowMs, auth: access }).routes());
  const server = createServer((req, res) => void app.callback()(req, res));
  let at = 0;
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    at = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const call = (method: string, path: string, body?: string, basic?: string): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = {};
      if (basic !== undefined) headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
      if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
      if (body !== undefined && !body.startsWith('{')) headers['content-type'] = 'application/x-www-form-urlencoded';
      const req = request({ host: '127.0.0.1', port: at, method, path, headers, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });

  void it('answers 500 "not capable" until the cluster version enables auth; other /v2/auth paths are not routed', async () => {
    capable = false;
    assert.deepEqual(await call('GET', '/v2/auth/users'), {
      status: 500,
      type: 'application/json',
      body: '{"message":"Not capable of accessing auth feature during rolling upgrades."}',
    });
    capable = true;
    assert.equal((await call('GET', '/v2/auth/other')).status, 404);
    assert.equal((await call('GET', '/v2/auth/users')).body, '{"users":null}\n');
  });

  void it('sets up users and roles, then enforces them on keys and members once enabled', async () => {
    assert.equal((await call('PUT', '/v2/auth/users/root', '{"user":"root","password":"r"}')).status, 201);
    assert.equal((await call('PUT', '/v2/auth/roles/ro', '{"role":"ro","permissions":{"kv":{"read":["/pub/*"],"write":[]}}}')).status, 201);
    assert.equal((await call('PUT', '/v2/auth/users/ann', '{"user":"ann","password":"a","roles":["ro"]}')).status, 200);
    assert.equal((await call('PUT', '/v2/auth/roles/guest', '{"role":"guest","permissions":{"kv":{"read":[],"write":[]}}}')).status, 201);
    assert.equal((await call('PUT', '/v2/keys/pub/x', 'value=1')).status, 201);
    assert.equal((await call('PUT', '/v2/auth/enable')).status, 200);

    const denied = { status: 401, type: 'application/json', body: '{"errorCode":110,"message":"The request requires user authentication","cause":"Insufficient credentials","index":0}\n' };
    assert.deepEqual(await call('GET', '/v2/keys/pub/x'), denied, 'the guest role reads nothing');
    assert.equal((await call('GET', '/v2/keys/pub/x', undefined, 'ann:a')).status, 200);
    assert.deepEqual(await call('GET', '/v2/keys/pub/x', undefined, 'ann:bad'), denied);
    assert.deepEqual(await call('PUT', '/v2/keys/pub/x', 'value=2', 'ann:a'), denied, 'ro cannot write');
    assert.equal((await call('PUT', '/v2/keys/pub/x', 'value=2', 'root:r')).status, 200);

    chain = ['nobody', 'ann'];
    assert.equal((await call('GET', '/v2/keys/pub/x')).status, 200, 'a CN of the chain (an issuer here) names the user');
    assert.equal((await call('GET', '/v2/auth/users')).status, 401, 'ann is not root');
    chain = ['root'];
    assert.equal((await call('GET', '/v2/auth/users')).status, 200);
    chain = [];

    const noAuth = { status: 401, type: 'application/json', body: '{"message":"Insufficient credentials"}' };
    assert.deepEqual(await call('POST', '/v2/members', '{"peerURLs":["http://127.0.0.1:1"]}'), noAuth);
    assert.equal((await call('GET', '/v2/members')).status, 200, 'reading members needs no user');
    assert.equal((await call('GET', '/v2/auth/enable')).body, '{"enabled":true}\n');
    assert.deepEqual(await call('DELETE', '/v2/auth/enable'), noAuth);
    assert.equal((await call('DELETE', '/v2/auth/enable', undefined, 'root:r')).status, 200);
    assert.equal((await call('GET', '/v2/keys/pub/x')).status, 200, 'disabled: everyone reads again');
  });
});
