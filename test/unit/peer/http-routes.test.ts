/**
 * The peer HTTP listener: `/version` and `/members` from their callbacks, 404 and 405
 * answers, routes added (and removed) later, a throwing handler answered 500, several listen
 * URLs, and a bind failure reported as an error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import pino from 'pino';
import { createPeerTransport } from '../../../server/peer/index.js';
import { liveHandles, rawRequest, recorder, startMember } from './harness.js';

void test('GET /version and GET /members answer from the callbacks', async () => {
  const a = await startMember({
    id: 1n,
    host: '127.0.0.60',
    members: () => [{ id: 1, peerURLs: ['http://127.0.0.60:2380'], name: 'a', clientURLs: [] }],
  });
  try {
    const version = await rawRequest(a.url(), 'GET', '/version');
    assert.equal(version.status, 200);
    assert.equal(version.headers['content-type'], 'application/json');
    assert.equal(version.body, '{"etcdserver":"3.4.45","etcdcluster":"3.4.0"}');
    const members = await rawRequest(a.url(), 'GET', '/members');
    assert.equal(members.status, 200);
    assert.deepEqual(JSON.parse(members.body), [{ id: 1, peerURLs: ['http://127.0.0.60:2380'], name: 'a', clientURLs: [] }]);
    const post = await rawRequest(a.url(), 'POST', '/version');
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET');
    const none = await rawRequest(a.url(), 'GET', '/nope');
    assert.equal(none.status, 404);
    assert.equal(none.body, '404 page not found\n');
    const upgradeElsewhere = await rawRequest(a.url(), 'GET', '/elsewhere', { connection: 'Upgrade', upgrade: 'x' });
    assert.equal(upgradeElsewhere.status, 404);
  } finally {
    await a.transport.close();
  }
});

void test('routes added later: prefix match, removal, a throwing handler answers 500', async () => {
  const a = await startMember({ id: 1n, host: '127.0.0.61' });
  try {
    const promoted: string[] = [];
    const remove = a.transport.route({
      method: 'POST',
      path: '/members/promote/',
      prefix: true,
      handle(req, res) {
        promoted.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('[]');
      },
    });
    a.transport.route({
      method: 'POST',
      path: '/leases',
      handle: async () => {
        await Promise.resolve();
        throw new Error('boom');
      },
    });
    const promote = await rawRequest(a.url(), 'POST', '/members/promote/12');
    assert.equal(promote.status, 200);
    assert.deepEqual(promoted, ['/members/promote/12']);
    const withContinue = await rawRequest(a.url(), 'POST', '/members/promote/13', { expect: '100-continue' }, Buffer.from('{}'));
    assert.equal(withContinue.status, 200);
    const exactStillGet = await rawRequest(a.url(), 'GET', '/members');
    assert.equal(exactStillGet.status, 200);
    const boom = await rawRequest(a.url(), 'POST', '/leases', {}, Buffer.from('x'));
    assert.equal(boom.status, 500);
    assert.equal(a.logs.find('peer HTTP handler failed').length, 1);
    remove();
    const gone = await rawRequest(a.url(), 'POST', '/members/promote/12');
    assert.equal(gone.status, 404);
  } finally {
    await a.transport.close();
  }
});

void test('several listen URLs are all served; a bind failure rejects start and leaves nothing bound', async () => {
  const options = {
    localId: 1n,
    clusterId: 1n,
    serverVersion: '3.4.45',
    minClusterVersion: '3.0.0',
    handlers: recorder(),
    version: () => ({ etcdserver: '3.4.45', etcdcluster: 'not_decided' }),
    members: () => [],
    logger: pino({ level: 'silent' }),
    registry: new Registry(),
  };
  const t = createPeerTransport({ ...options, listenUrls: ['http://127.0.0.62:0', 'http://127.0.0.63:0'] });
  await t.start();
  try {
    const urls = t.boundUrls();
    assert.equal(urls.length, 2);
    for (const u of urls) assert.equal((await rawRequest(u, 'GET', '/version')).body, '{"etcdserver":"3.4.45","etcdcluster":"not_decided"}');
    const clash = createPeerTransport({ ...options, registry: new Registry(), listenUrls: ['http://127.0.0.64:0', urls[0] as string] });
    await assert.rejects(clash.start(), /cannot listen on peer URL/);
    await clash.close();
    const tls = createPeerTransport({ ...options, registry: new Registry(), listenUrls: ['https://127.0.0.64:0'] });
    await assert.rejects(tls.start(), /no TLS certificate for peer URL https:/);
  } finally {
    await t.close();
  }
});

void test('after close no socket, server, timer or immediate is left', async () => {
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(liveHandles(), []);
});
