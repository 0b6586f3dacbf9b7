/**
 * The bounds against the HTTP/2 denial-of-service attacks (flood-guard.ts, README "What the
 * connection enforces"): header lists over SETTINGS_MAX_HEADER_LIST_SIZE answered 431 with the
 * HPACK context kept, endless CONTINUATION, rapid reset (CVE-2023-44487) and the 2019 floods
 * (PING, SETTINGS, empty frames, PRIORITY, reset flood, 0-length header fragments), on the
 * test's clock.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_FLOOD_BOUNDS, FloodGuard } from '../../../server/transport/h2/flood-guard.js';
import { FrameFlag, FrameType, H2Error } from '../../../server/transport/http2-frames.js';
import { frame } from './h2-test-frames.js';
import { decodeAll, GET, goAwayCode, priority, rawPeer, resetCode, u32, type RawPeer } from './h2-raw-peer.js';

const END_STREAM = FrameFlag.EndStream;
const tight = { burst: 5, perSecond: 5 };

void test('FloodGuard: a burst at once, then the rate per second', () => {
  const g = new FloodGuard({ ping: { burst: 3, perSecond: 2 } }, 0);
  assert.deepEqual([g.spend('ping', 0), g.spend('ping', 0), g.spend('ping', 0), g.spend('ping', 0)], [true, true, true, false]);
  assert.equal(g.spend('ping', 499), false);
  assert.equal(g.spend('ping', 500), true, 'one more after half a second at 2 per second');
  assert.equal(g.spend('ping', 10_000), true);
  assert.deepEqual(DEFAULT_FLOOD_BOUNDS.rapidReset, { burst: 20_000, perSecond: 20_000 });
});

void test('a header list over SETTINGS_MAX_HEADER_LIST_SIZE: 431, never onStream, and the HPACK context still follows', async () => {
  const p = rawPeer({ maxHeaderBytes: 1024 });
  // The big field goes into the client's dynamic table; stream 3 refers to it by index.
  const big: [string, string] = ['x-big', 'b'.repeat(2000)];
  p.send(p.headers(1, [...GET, big]));
  p.send(p.headers(3, [...GET, ['x-small', 's']], END_STREAM));
  const out = await p.answer();
  const h = out.find((f) => f.type === FrameType.Headers && f.streamId === 1);
  assert.ok(h !== undefined);
  assert.deepEqual(decodeAll(h.payload), [[':status', '431']]);
  assert.equal(resetCode(out, 1), H2Error.NoError);
  assert.deepEqual(p.streams.map((s) => [s.id, s.header('x-small')]), [[3, 's']]);
  assert.equal(goAwayCode(out), undefined);
});

void test('endless CONTINUATION: ENHANCE_YOUR_CALM once the block passes its bytes, or its frame count', async () => {
  const p = rawPeer({ maxHeaderBytes: 1024 }); // blocks up to 4 KiB
  p.send(frame(FrameType.Headers, 0, 1, p.block(GET)));
  for (let i = 0; i < 10 && !p.ended; i++) p.send(frame(FrameType.Continuation, 0, 1, Buffer.alloc(1000, 0x80)));
  assert.equal(goAwayCode(await p.answer()), H2Error.EnhanceYourCalm);
  const q = rawPeer({ floods: { emptyFrames: { burst: 1e6, perSecond: 1 } } });
  q.send(frame(FrameType.Headers, 0, 1, q.block(GET)));
  for (let i = 0; i < 200 && !q.ended; i++) q.send(frame(FrameType.Continuation, 0, 1, Buffer.alloc(0)));
  assert.equal(goAwayCode(await q.answer()), H2Error.EnhanceYourCalm);
});

/** Opens and resets `n` streams from `first` on; answers the next id. */
function openAndReset(p: RawPeer, first: number, n: number): number {
  let id = first;
  for (let i = 0; i < n; i++, id += 2) p.send(p.headers(id, GET), frame(FrameType.RstStream, 0, id, u32(H2Error.Cancel)));
  return id;
}

void test('rapid reset: more unanswered streams reset than the bound allows → GOAWAY ENHANCE_YOUR_CALM', async () => {
  const p = rawPeer({ floods: { rapidReset: tight } });
  openAndReset(p, 1, 5);
  assert.equal(goAwayCode(await p.answer()), undefined, 'within the burst');
  openAndReset(p, 11, 1);
  assert.equal(goAwayCode(await p.answer()), H2Error.EnhanceYourCalm);
});

void test('rapid reset: a client that cancels at the sustained rate, or cancels answered streams, is never cut', async () => {
  const p = rawPeer({ floods: { rapidReset: tight } }, (s, peer) => {
    if (s.id > 1000) s.respond(peer.block([[':status', '200']]));
  });
  let id = 1;
  for (let second = 0; second < 10; second++) {
    p.clock.ms = 1000 * second;
    id = openAndReset(p, id, 5);
  }
  id = openAndReset(p, 1001, 50); // answered before the client's reset: not counted
  assert.equal(goAwayCode(await p.answer()), undefined);
  assert.ok(id > 1001);
});

const floods: [string, keyof typeof DEFAULT_FLOOD_BOUNDS, (p: RawPeer, i: number) => Buffer][] = [
  ['PING', 'ping', () => frame(FrameType.Ping, 0, 0, Buffer.alloc(8))],
  ['SETTINGS', 'settings', () => frame(FrameType.Settings, 0, 0)],
  ['empty DATA', 'emptyFrames', () => frame(FrameType.Data, 0, 1, Buffer.alloc(0))],
  ['zero-length HEADERS and CONTINUATION', 'emptyFrames', (_p, i) => frame(i === 0 ? FrameType.Headers : FrameType.Continuation, 0, 3, Buffer.alloc(0))],
  ['unknown frame types', 'emptyFrames', () => frame(0xfa, 0, 0, Buffer.alloc(0))],
  ['PRIORITY', 'priority', () => frame(FrameType.Priority, 0, 1, priority(0))],
  ['RST_STREAM on closed streams', 'emptyFrames', () => frame(FrameType.RstStream, 0, 1, u32(H2Error.Cancel))],
  ['malformed requests (our RST_STREAMs)', 'streamErrors', (p, i) => p.headers(2 * i + 3, [[':method', 'GET']], END_STREAM)],
];
for (const [what, kind, make] of floods) {
  void test(`${what} flood: GOAWAY ENHANCE_YOUR_CALM past the bound, not before`, async () => {
    const p = rawPeer({ floods: { [kind]: tight } });
    p.send(p.headers(1, [[':method', 'POST'], [':scheme', 'http'], [':path', '/']]));
    if (what.startsWith('RST_STREAM')) p.send(frame(FrameType.RstStream, 0, 1, u32(H2Error.Cancel)));
    for (let i = 0; i < 4; i++) p.send(make(p, i));
    assert.equal(goAwayCode(await p.answer()), undefined, 'within the burst');
    for (let i = 4; i < 7 && !p.ended; i++) p.send(make(p, i));
    assert.equal(goAwayCode(await p.answer()), H2Error.EnhanceYourCalm);
  });
}
