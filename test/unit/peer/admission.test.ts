/**
 * Who may open a stream: unknown senders get 404 and the `failed to find remote peer in
 * cluster` line, another cluster gets 412, a removed member gets 410; versions and `X-Raft-To`
 * are checked; the refused dialer is told once (onRejected) and keeps retrying quietly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeAll, liveHandles, rawRequest, startCluster, startMember, streamHeaders, waitUntil, type Member } from './harness.js';

const STREAM = (from: bigint): string => `/raft/stream/frames/${from.toString(16)}`;

void test('unknown sender: 404 `error sender not found` and the etcd log line', async () => {
  const c = await startMember({ id: 3n, host: '127.0.0.40', clusterId: 0xc1n });
  const a = await startMember({ id: 1n, host: '127.0.0.41', clusterId: 0xc1n });
  try {
    const raw = await rawRequest(c.url(), 'GET', STREAM(7n), streamHeaders(7n, 3n));
    assert.equal(raw.status, 404);
    assert.equal(raw.body, 'error sender not found\n');

    a.transport.addPeer(3n, [c.url()]);
    await waitUntil(() => a.handlers.rejected.length > 0, 'a told of the refusal');
    assert.deepEqual(a.handlers.rejected[0], { to: 3n, status: 404, reason: 'error sender not found' });
    const lines = c.logs.find('failed to find remote peer in cluster');
    assert.ok(lines.length >= 2);
    const line = lines.at(-1);
    assert.equal(line?.level, 'warn');
    assert.equal(line?.['local-member-id'], '3');
    assert.equal(line?.['remote-peer-id-from'], '1');
    assert.equal(line?.['remote-peer-id-stream-handler'], '3');
    assert.equal(line?.['cluster-id'], 'c1');
    assert.equal(a.transport.activeSince(3n), undefined);
    // The dialer retries, but is told and logs only once.
    await waitUntil(() => c.logs.find('failed to find remote peer in cluster').length >= 4, 'retries');
    assert.equal(a.handlers.rejected.length, 1);
    assert.equal(a.logs.find('remote peer failed to find local member in cluster').length, 1);
  } finally {
    await closeAll([a, c]);
  }
});

void test('another cluster: 412 `cluster ID mismatch`, both ends log it', async () => {
  const members = await startCluster([1n, 2n], { clusterId: 0xc1n });
  const [a] = members as [Member, Member];
  const stranger = await startMember({ id: 1n, host: '127.0.0.42', clusterId: 0xfeedn });
  try {
    const raw = await rawRequest(a.url(), 'GET', STREAM(2n), streamHeaders(2n, 1n, 0xdeadn));
    assert.equal(raw.status, 412);
    assert.equal(raw.body, 'cluster ID mismatch\n');
    const line = a.logs.find('request cluster ID mismatch').at(-1);
    assert.equal(line?.['remote-peer-cluster-id'], 'dead');
    assert.equal(line?.['local-member-cluster-id'], 'c1');

    stranger.transport.addPeer(1n, [a.url()]);
    await waitUntil(() => stranger.handlers.rejected.length > 0, 'stranger refused');
    assert.deepEqual(stranger.handlers.rejected[0], { to: 1n, status: 412, reason: 'cluster ID mismatch' });
    assert.equal(stranger.logs.find('request sent was ignored by remote peer due to cluster ID mismatch').length, 1);
  } finally {
    await closeAll([...members, stranger]);
  }
});

void test('removed member: its stream is closed, later streams get 410 and it learns it was removed', async () => {
  const members = await startCluster([1n, 2n]);
  const [a, b] = members as [Member, Member];
  try {
    await waitUntil(() => a.transport.activeSince(2n) !== undefined && b.transport.activeSince(1n) !== undefined, 'connected');
    b.transport.removePeer(1n);
    assert.equal(b.transport.stats(1n), undefined);
    await waitUntil(() => a.handlers.rejected.some((r) => r.status === 410), 'a refused with 410');
    assert.deepEqual(a.handlers.rejected.find((r) => r.status === 410), { to: 2n, status: 410, reason: 'removed member' });
    assert.equal(a.logs.find('the member has been permanently removed from the cluster').length, 1);
    const line = b.logs.find('rejected stream from remote peer because it was removed').at(-1);
    assert.equal(line?.['remote-peer-id-from'], '1');
    assert.equal(line?.['local-member-id'], '2');
    const raw = await rawRequest(b.url(), 'GET', STREAM(1n), streamHeaders(1n, 2n));
    assert.equal(raw.status, 410);
    assert.equal(raw.body, 'removed member\n');
    // b dropped its outbound stream to a: nothing more is sent.
    b.transport.send(1n, Buffer.from('x'));
    assert.equal(a.transport.stats(2n)?.framesReceived, 0);
  } finally {
    await closeAll(members);
  }
});

void test('version, X-Raft-To and path checks', async () => {
  const a = await startMember({ id: 1n, host: '127.0.0.43', minClusterVersion: '3.4.0' });
  a.transport.addPeer(2n, ['http://127.0.0.44:1']);
  try {
    const old = await rawRequest(a.url(), 'GET', STREAM(2n), streamHeaders(2n, 1n, 0xc1n, { 'x-server-version': '3.3.27' }));
    assert.equal(old.status, 412);
    assert.match(old.body, /^remote version is too low: remote\[3\.3\.27\] < minCluster\[3\.4\.0\]/);
    const future = await rawRequest(a.url(), 'GET', STREAM(2n), streamHeaders(2n, 1n, 0xc1n, { 'x-min-cluster-version': '3.6.0' }));
    assert.equal(future.status, 412);
    assert.match(future.body, /^local version is too low/);
    const wrongTo = await rawRequest(a.url(), 'GET', STREAM(2n), streamHeaders(2n, 5n));
    assert.equal(wrongTo.status, 412);
    assert.equal(wrongTo.body, 'to field mismatch\n');
    const badPath = await rawRequest(a.url(), 'GET', '/raft/stream/frames/xyz', streamHeaders(2n, 1n));
    assert.equal(badPath.status, 400);
    const good = await rawRequest(a.url(), 'GET', STREAM(2n), streamHeaders(2n, 1n));
    assert.equal(good.status, 101);
    assert.equal(good.headers['x-etcd-cluster-id'], 'c1');
    assert.equal(good.headers['x-server-from'], '1');
    const wrongUpgrade = await rawRequest(a.url(), 'GET', STREAM(2n), { ...streamHeaders(2n, 1n), upgrade: 'websocket' });
    assert.equal(wrongUpgrade.status, 400);
  } finally {
    await a.transport.close();
  }
});

void test('after close no socket, server, timer or immediate is left', async () => {
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(liveHandles(), []);
});
