/**
 * `unix://name:port` peer URLs (etcd's TestEtcdUnixPeers): the listener's and the dialer's
 * address is the unix socket `name:port` (relative to the working directory), and a peer GET
 * (peer-get.ts, through peer-request.ts) reaches a server listening on it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { getPeerJson } from '../../../server/peer/peer-get.js';
import { listenAddress } from '../../../server/peer/peer-listener.js';
import { peerAddress } from '../../../server/peer/peer-request.js';

void test('a unix peer URL names the socket host:port, for listening and dialling', () => {
  assert.deepEqual(peerAddress('unix://etcd.unix:1'), { host: 'localhost', port: 0, tls: false, path: 'etcd.unix:1' });
  assert.equal(listenAddress('unix://localhost:2380').path, 'localhost:2380');
  assert.equal(listenAddress('http://127.0.0.1:2380').path, undefined);
  assert.match(String(peerAddress('unixs://a:1')), /unsupported peer URL scheme unixs:/);
});

void test('a peer GET over a unix peer URL reaches the socket in the working directory', async () => {
  // The socket name is relative, as etcd's: run in a directory of our own (this file's process only).
  process.chdir(mkdtempSync(join(tmpdir(), 'kvstore-unix-peer-')));
  const server = createServer((_req, res) => res.end('{"etcdserver":"3.4.23","etcdcluster":"3.4.0"}'));
  await new Promise<void>((r) => server.listen({ path: 'peer.unix:7' }, r));
  try {
    const doc = await getPeerJson('unix://peer.unix:7', '/version', 5000);
    assert.deepEqual(doc?.body, { etcdserver: '3.4.23', etcdcluster: '3.4.0' });
  } finally {
    server.close();
  }
});
