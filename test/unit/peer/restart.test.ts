/**
 * A peer that stops and comes back on the same address: the dialer logs the transitions once
 * each (`peer became inactive…`, `peer became active` again), `activeSince` restarts, frames
 * flow to the new incarnation; half-open connections are detected on both ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import { closeAll, liveHandles, startCluster, startMember, streamHeaders, waitConnected, waitUntil, type Member } from './harness.js';

void test('peer restart: inactive once, active again, frames delivered to the new process', async () => {
  const members = await startCluster([0xaan, 0xbbn]);
  const [a, b] = members as [Member, Member];
  let b2: Member | undefined;
  try {
    await waitConnected(members);
    const firstSince = a.transport.activeSince(0xbbn);
    assert.equal(typeof firstSince, 'number');
    const port = Number(new URL(b.url()).port);
    await b.transport.close();
    await waitUntil(() => a.transport.activeSince(0xbbn) === undefined, 'a sees b down');
    // Let a few redials fail before b comes back: they must not log again.
    await waitUntil(() => (a.transport.stats(0xbbn)?.framesDropped ?? 0) > 0 || a.logs.find('failed to dial remote peer').length > 0, 'a redial failing');
    await new Promise((r) => setTimeout(r, 300));

    b2 = await startMember({ id: 0xbbn, host: '127.0.0.11', port });
    b2.transport.addPeer(0xaan, [a.url()]);
    await waitUntil(() => a.transport.activeSince(0xbbn) !== undefined, 'a sees b again');
    assert.ok((a.transport.activeSince(0xbbn) ?? 0) >= (firstSince ?? 0));

    const active = a.logs.find('peer became active');
    const inactive = a.logs.find('peer became inactive (message send to peer failed)');
    assert.equal(active.length, 2);
    assert.equal(inactive.length, 1);
    assert.equal(active[1]?.['peer-id'], 'bb');
    assert.equal(active[1]?.['local-member-id'], 'aa');
    assert.equal(active[1]?.level, 'info');
    assert.equal(inactive[0]?.level, 'warn');
    assert.match(String(inactive[0]?.error), /^failed to write bb on stream Frames \(.+\)$/);
    assert.equal(a.logs.find('lost TCP streaming connection with remote peer').filter((l) => l['stream-writer-type'] !== undefined).length, 1);
    assert.ok(a.logs.find('failed to dial remote peer').length <= 1, 'no line per retry');

    const text = await a.registry.metrics();
    assert.match(text, /kvstore_network_disconnected_peers_total\{Local="aa",Remote="bb"\} 1/);
    assert.match(text, /kvstore_network_active_peers\{Local="aa",Remote="bb"\} 1/);

    for (let i = 0; i < 5; i++) a.transport.send(0xbbn, Buffer.from(`after-${i}`));
    await waitUntil(() => (b2?.handlers.frames.get(0xaan)?.length ?? 0) >= 5, 'frames on the new b');
    assert.deepEqual(
      b2.handlers.frames.get(0xaan)?.map((f) => f.toString()),
      ['after-0', 'after-1', 'after-2', 'after-3', 'after-4'],
    );
  } finally {
    await closeAll(b2 === undefined ? [a] : [a, b2]);
  }
});

void test('updatePeer: a peer dialed at a dead URL connects once given the right one', async () => {
  const a = await startMember({ id: 1n, host: '127.0.0.34' });
  const b = await startMember({ id: 2n, host: '127.0.0.35' });
  try {
    b.transport.addPeer(1n, [a.url()]);
    a.transport.addPeer(2n, ['http://127.0.0.35:1']);
    await waitUntil(() => a.logs.find('failed to dial remote peer').length > 0, 'a failing to dial');
    a.transport.updatePeer(2n, [b.url()]);
    await waitUntil(() => a.transport.activeSince(2n) !== undefined, 'a connected to b');
    a.transport.send(2n, Buffer.from('hello'));
    await waitUntil(() => (b.handlers.frames.get(1n)?.length ?? 0) === 1, 'frame delivered');
    // A URL list that no longer contains the live connection's URL makes it redial.
    a.transport.updatePeer(2n, ['http://127.0.0.35:1']);
    await waitUntil(() => a.transport.activeSince(2n) === undefined, 'connection dropped');
    assert.match(String(a.logs.find('peer became inactive (message send to peer failed)')[0]?.error), /peer URLs changed/);
  } finally {
    await closeAll([a, b]);
  }
});

void test('half-open: a listener that upgrades and then goes silent is dropped by the dialer', async () => {
  const held: Socket[] = [];
  const mute = createServer((socket) => {
    held.push(socket);
    socket.once('data', () => socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: kvstore-raft-frames\r\n\r\n'));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => mute.listen({ host: '127.0.0.30', port: 0 }, r));
  const port = (mute.address() as { port: number }).port;
  const a = await startMember({ id: 1n, host: '127.0.0.31', tuning: { heartbeatIntervalMs: 50, idleTimeoutMs: 300 } });
  try {
    a.transport.addPeer(2n, [`http://127.0.0.30:${port}`]);
    await waitUntil(() => a.logs.find('peer became active').length === 1, 'upgrade accepted');
    await waitUntil(() => a.logs.find('peer became inactive (message send to peer failed)').length === 1, 'silence detected');
    assert.match(String(a.logs.find('peer became inactive (message send to peer failed)')[0]?.error), /no answer from peer/);
  } finally {
    await a.transport.close();
    for (const s of held) s.destroy();
    await new Promise<void>((r) => mute.close(() => r()));
  }
});

void test('half-open: an accepted stream that goes silent is closed by the receiver', async () => {
  const b = await startMember({ id: 2n, host: '127.0.0.32', tuning: { idleTimeoutMs: 300 } });
  b.transport.addPeer(1n, ['http://127.0.0.33:1']);
  const u = new URL(b.url());
  const socket = connect({ host: u.hostname, port: Number(u.port) });
  try {
    const headers = Object.entries(streamHeaders(1n, 2n)).map(([k, v]) => `${k}: ${v}`);
    socket.write(['GET /raft/stream/frames/1 HTTP/1.1', `host: ${u.host}`, ...headers].join('\r\n') + '\r\n\r\n');
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    socket.on('error', () => undefined);
    await new Promise<void>((r) => socket.once('close', () => r()));
    assert.match(answer, /^HTTP\/1\.1 101 /);
    await waitUntil(() => b.logs.find('lost TCP streaming connection with remote peer').length > 0, 'the receiver to log');
    const lost = b.logs.find('lost TCP streaming connection with remote peer');
    assert.equal(lost.length, 1);
    assert.match(String(lost[0]?.error), /no frame from peer/);
  } finally {
    socket.destroy();
    await b.transport.close();
  }
});

void test('after close no socket, server, timer or immediate is left', async () => {
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(liveHandles(), []);
});
