/**
 * Frame streams between three real transports on loopback: FIFO per pair without
 * duplication (property), one write per burst, drops reported when a peer is down, and
 * no handle left behind after close.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createServer } from 'node:net';
import { closeAll, liveHandles, startCluster, startMember, waitConnected, waitUntil, waitUntilAsync, type Member } from './harness.js';

const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

function frame(run: number, from: bigint, to: bigint, seq: number, size: number): Buffer {
  const f = Buffer.alloc(Math.max(16, size), seq & 0xff);
  f.writeUInt32BE(run, 0);
  f.writeUInt32BE(Number(from), 4);
  f.writeUInt32BE(Number(to), 8);
  f.writeUInt32BE(seq, 12);
  return f;
}

void test('three transports: per-pair FIFO, no duplication, nothing lost on healthy links (property)', async () => {
  const members = await startCluster([1n, 2n, 3n]);
  try {
    await waitConnected(members);
    const send = fc.record({
      from: fc.integer({ min: 0, max: 2 }),
      to: fc.integer({ min: 0, max: 2 }),
      count: fc.integer({ min: 1, max: 40 }),
      size: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constant(100_000)),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(send, { maxLength: 6 }), { minLength: 1, maxLength: 8 }), async (turns) => {
        run++;
        for (const m of members) m.handlers.frames.clear();
        const expected = new Map<string, Buffer[]>();
        const seqs = new Map<string, number>();
        for (const turn of turns) {
          for (const s of turn) {
            if (s.from === s.to) continue;
            const from = members[s.from] as Member;
            const to = members[s.to] as Member;
            const key = `${from.id}->${to.id}`;
            for (let i = 0; i < s.count; i++) {
              const seq = seqs.get(key) ?? 0;
              seqs.set(key, seq + 1);
              const f = frame(run, from.id, to.id, seq, s.size);
              (expected.get(key) ?? expected.set(key, []).get(key))?.push(f);
              from.transport.send(to.id, f);
            }
          }
          await nextTurn();
        }
        const total = [...expected.values()].reduce((n, l) => n + l.length, 0);
        const received = (): number => members.reduce((n, m) => n + [...m.handlers.frames.values()].reduce((k, l) => k + l.length, 0), 0);
        await waitUntil(() => received() >= total, `${total} frames`);
        for (const m of members) {
          for (const p of members) {
            if (p === m) continue;
            const got = m.handlers.frames.get(p.id) ?? [];
            const want = expected.get(`${p.id}->${m.id}`) ?? [];
            assert.equal(got.length, want.length, `frames ${p.id}->${m.id}`);
            got.forEach((f, i) => assert.ok(f.equals(want[i] as Buffer), `frame ${i} of ${p.id}->${m.id}`));
          }
        }
        assert.equal(received(), total, 'no duplicates');
      }),
      { numRuns: 25 },
    );
    for (const m of members) for (const p of members) if (p !== m) assert.equal(m.transport.stats(p.id)?.framesDropped, 0);
  } finally {
    await closeAll(members);
  }
});

void test('many sends in one turn leave in one write and arrive in order', async () => {
  const members = await startCluster([1n, 2n]);
  const [a, b] = members as [Member, Member];
  try {
    await waitConnected(members);
    const before = a.transport.stats(2n)?.writes ?? 0;
    for (let i = 0; i < 1000; i++) {
      const f = Buffer.alloc(4);
      f.writeUInt32BE(i, 0);
      a.transport.send(2n, f);
    }
    await waitUntil(() => (b.handlers.frames.get(1n)?.length ?? 0) >= 1000, '1000 frames');
    const stats = a.transport.stats(2n);
    assert.equal((stats?.writes ?? 0) - before, 1, 'one write for the burst');
    assert.equal(stats?.framesSent, 1000);
    assert.deepEqual(
      b.handlers.frames.get(1n)?.map((f) => f.readUInt32BE(0)),
      Array.from({ length: 1000 }, (_, i) => i),
    );
    assert.equal(b.transport.stats(1n)?.framesReceived, 1000);
    const text = await a.registry.metrics();
    assert.match(text, /kvstore_network_active_peers\{Local="1",Remote="2"\} 1/);
    assert.match(text, new RegExp(`kvstore_network_peer_sent_bytes_total\\{To="2"\\} ${1000 * 9}`));
  } finally {
    await closeAll(members);
  }
});

void test('the dialer pings: round-trip times are observed per peer', async () => {
  const members = await startCluster([1n, 2n]);
  const [a] = members as [Member, Member];
  try {
    await waitConnected(members);
    let text = '';
    await waitUntilAsync(async () => {
      text = await a.registry.metrics();
      return /kvstore_network_peer_round_trip_time_seconds_count\{To="2"\} [1-9]/.test(text);
    }, 'a round trip');
    assert.match(text, /kvstore_network_peer_round_trip_time_seconds_count\{To="2"\} [1-9]/);
  } finally {
    await closeAll(members);
  }
});

void test('a peer that is down: frames are dropped, counted and reported once per turn', async () => {
  const ghost = createServer();
  await new Promise<void>((r) => ghost.listen({ host: '127.0.0.20', port: 0 }, r));
  const port = (ghost.address() as { port: number }).port;
  await new Promise<void>((r) => ghost.close(() => r()));
  const a = await startMember({ id: 1n, host: '127.0.0.21' });
  try {
    a.transport.addPeer(9n, [`http://127.0.0.20:${port}`]);
    await waitUntil(() => a.handlers.unreachable.length > 0 || (a.transport.stats(9n)?.framesDropped ?? 0) > 0 || a.logs.find('failed to dial remote peer').length > 0, 'first dial failure');
    const reportsBefore = a.handlers.unreachable.length;
    for (let i = 0; i < 10; i++) a.transport.send(9n, Buffer.from([i]));
    assert.equal(a.handlers.unreachable.length, reportsBefore, 'never reported synchronously from send');
    await nextTurn();
    await nextTurn();
    assert.equal(a.handlers.unreachable.length, reportsBefore + 1, 'one report for the turn');
    assert.deepEqual(a.handlers.unreachable.at(-1), 9n);
    assert.ok((a.transport.stats(9n)?.framesDropped ?? 0) >= 10);
    assert.equal(a.transport.activeSince(9n), undefined);
    assert.match(await a.registry.metrics(), /kvstore_network_peer_sent_failures_total\{To="9"\} (1\d|[2-9]\d)/);
    assert.equal(a.logs.find('peer became inactive (message send to peer failed)').length, 0, 'never active: no inactive warning');
    assert.equal(a.logs.find('failed to dial remote peer').length, 1, 'dial failures logged once, not per retry');
  } finally {
    await a.transport.close();
  }
});

void test('after close no socket, server, timer or immediate is left', async () => {
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(liveHandles(), []);
});
