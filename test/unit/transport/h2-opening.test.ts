/**
 * Routing an HTTP/2 connection from its first bytes: the plain hand-off (minus the client's ACK
 * of the listener's SETTINGS) or the authority relay; and which authorities nghttp2 refuses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptedAuthority, repairAuthority } from '../../../server/transport/authority.js';
import { inspectOpening } from '../../../server/transport/h2-opening.js';
import { FrameFlag, FrameType } from '../../../server/transport/http2-frames.js';
import { HTTP2_PREFACE } from '../../../server/transport/protocol-sniff.js';
import { clientEncoder, frame, requestFields } from './h2-test-frames.js';

const settings = frame(FrameType.Settings, 0, 0, Buffer.from([0, 4, 0, 0x40, 0, 0]));
const ack = frame(FrameType.Settings, FrameFlag.Ack, 0);
const windowUpdate = frame(FrameType.WindowUpdate, 0, 0, Buffer.from([0, 0x0f, 0, 1]));
const headersFor = (authority: string): Buffer => frame(FrameType.Headers, FrameFlag.EndHeaders, 1, clientEncoder()(requestFields(authority)));

void test('a Go-like opening with an accepted authority goes plain, the ACK cut out', () => {
  const data = frame(FrameType.Data, FrameFlag.EndStream, 1, Buffer.alloc(5));
  const bytes = Buffer.concat([HTTP2_PREFACE, settings, windowUpdate, ack, headersFor('127.0.0.1:2379'), data]);
  const d = inspectOpening(bytes, false);
  assert.equal(d.route, 'plain');
  if (d.route === 'plain') assert.deepEqual(d.bytes, Buffer.concat([HTTP2_PREFACE, settings, windowUpdate, headersFor('127.0.0.1:2379'), data]));
});

void test('a scheme in the first request\'s authority routes to the relay, ACK or not', () => {
  for (const bytes of [
    Buffer.concat([HTTP2_PREFACE, settings, ack, headersFor('http://127.0.0.1:2379')]),
    Buffer.concat([HTTP2_PREFACE, settings, headersFor('https://127.0.0.1:2379')]),
  ]) {
    const d = inspectOpening(bytes, false);
    assert.equal(d.route, 'relay');
    if (d.route === 'relay') assert.match(d.authority ?? '', /^https?:\/\/127\.0\.0\.1:2379$/);
  }
});

void test('waits while the request or the ACK is still to come, at any split', () => {
  const full = Buffer.concat([HTTP2_PREFACE, settings, ack, headersFor('127.0.0.1:2379')]);
  for (let n = HTTP2_PREFACE.length; n < full.length; n++) {
    assert.equal(inspectOpening(full.subarray(0, n), false).route, 'wait', `after ${n} bytes`);
  }
  assert.equal(inspectOpening(full, false).route, 'plain');
  // A grpc-js-like client sends its request before the ACK: still waiting for the ACK.
  const early = Buffer.concat([HTTP2_PREFACE, settings, headersFor('127.0.0.1:2379')]);
  assert.equal(inspectOpening(early, false).route, 'wait');
  assert.equal(inspectOpening(Buffer.concat([early, ack]), false).route, 'plain');
});

void test('no request yet: plain once forced or when a frame wants an answer; relay while the ACK is due', () => {
  const quiet = Buffer.concat([HTTP2_PREFACE, settings, ack]);
  assert.equal(inspectOpening(quiet, false).route, 'wait');
  assert.equal(inspectOpening(quiet, true).route, 'plain');
  const ping = frame(FrameType.Ping, 0, 0, Buffer.alloc(8));
  assert.equal(inspectOpening(Buffer.concat([quiet, ping]), false).route, 'plain');
  assert.equal(inspectOpening(Buffer.concat([HTTP2_PREFACE, settings]), true).route, 'relay');
  assert.equal(inspectOpening(Buffer.concat([HTTP2_PREFACE, settings, ping]), false).route, 'relay');
  // A header block that cannot be decoded: the server shall judge it.
  const broken = frame(FrameType.Headers, FrameFlag.EndHeaders, 1, Buffer.from([0xff, 0xff, 0xff]));
  assert.equal(inspectOpening(Buffer.concat([quiet, broken]), false).route, 'plain');
});

void test('accepted and repaired authorities', () => {
  for (const ok of ['127.0.0.1:2379', 'example.com', '[::1]:2379', 'user@host:1', '']) assert.ok(acceptedAuthority(ok), ok);
  for (const bad of ['http://127.0.0.1:2379', 'a b', 'host/path', 'h?q']) assert.ok(!acceptedAuthority(bad), bad);
  assert.equal(repairAuthority('http://127.0.0.1:2379'), '127.0.0.1:2379');
  assert.equal(repairAuthority('https://[::1]:2379/v3/x?y#z'), '[::1]:2379');
  assert.equal(repairAuthority('unix://sock:0'), 'sock:0');
  assert.equal(repairAuthority('host:1/path'), 'host:1');
  assert.equal(repairAuthority('a b'), undefined);
});

void test('inspectOpening never throws, whatever follows the preface', () => {
  let seed = 7;
  const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) & 0x7fff_ffff);
  for (let i = 0; i < 3000; i++) {
    const junk = Buffer.from(Array.from({ length: 1 + (next() % 80) }, () => next() & 0xff));
    const headerOfJunk = frame(FrameType.Headers, (next() & 0x2d) | FrameFlag.EndHeaders, 1 + 2 * (next() % 3), junk);
    for (const bytes of [Buffer.concat([HTTP2_PREFACE, junk]), Buffer.concat([HTTP2_PREFACE, ack, headerOfJunk]), Buffer.concat([HTTP2_PREFACE, settings, headerOfJunk, junk])]) {
      assert.doesNotThrow(() => inspectOpening(bytes, (i & 1) === 0));
    }
  }
});
