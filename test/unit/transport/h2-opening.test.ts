/**
 * Reading an HTTP/2 connection up to its first request: the hand-off (minus the client's ACK of
 * the listener's SETTINGS), when it happens, and whether the first request is a gRPC call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
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

void test('any authority goes plain (our framing takes any), and the first request is told gRPC or not', () => {
  for (const authority of ['127.0.0.1:2379', 'http://127.0.0.1:2379', 'https://[::1]:2379/x']) {
    const d = inspectOpening(Buffer.concat([HTTP2_PREFACE, settings, ack, headersFor(authority)]), false);
    assert.equal(d.route, 'plain', authority);
    if (d.route === 'plain') assert.equal(d.firstRequestGrpc, true);
  }
  const curl = frame(FrameType.Headers, FrameFlag.EndHeaders | FrameFlag.EndStream, 1, clientEncoder()([[':method', 'GET'], [':scheme', 'https'], [':path', '/health'], [':authority', 'h']]));
  const d = inspectOpening(Buffer.concat([HTTP2_PREFACE, settings, ack, curl]), false);
  assert.equal(d.route === 'plain' ? d.firstRequestGrpc : 'none', false);
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

void test('no request yet: plain once forced or when a frame wants an answer, ACK or not', () => {
  const quiet = Buffer.concat([HTTP2_PREFACE, settings, ack]);
  assert.equal(inspectOpening(quiet, false).route, 'wait');
  assert.equal(inspectOpening(quiet, true).route, 'plain');
  const ping = frame(FrameType.Ping, 0, 0, Buffer.alloc(8));
  assert.equal(inspectOpening(Buffer.concat([quiet, ping]), false).route, 'plain');
  assert.equal(inspectOpening(Buffer.concat([HTTP2_PREFACE, settings]), true).route, 'plain');
  assert.equal(inspectOpening(Buffer.concat([HTTP2_PREFACE, settings, ping]), false).route, 'plain');
  // A header block that cannot be decoded: the server shall judge it.
  const broken = frame(FrameType.Headers, FrameFlag.EndHeaders, 1, Buffer.from([0xff, 0xff, 0xff]));
  assert.equal(inspectOpening(Buffer.concat([quiet, broken]), false).route, 'plain');
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
