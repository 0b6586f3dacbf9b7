/**
 * The client→server rewriter of the authority relay: header blocks come out with an accepted
 * `:authority`, decodable without the client's HPACK context; everything else byte for byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClientFrameRewriter, type AuthorityChange } from '../../../server/transport/client-frame-rewriter.js';
import { createHeaderBlockDecoder, type HeaderField } from '../../../server/transport/header-block-codec.js';
import { EMPTY_SETTINGS, FrameFlag, FrameType } from '../../../server/transport/http2-frames.js';
import { HTTP2_PREFACE } from '../../../server/transport/protocol-sniff.js';
import { clientEncoder, frame, requestFields, splitFrames, type Fields, type Frame } from './h2-test-frames.js';

const pairs = (fields: readonly HeaderField[]): Fields => fields.map((f) => [f.name, f.value] as const);

/** Decodes every header block of the server-side stream with ONE fresh decoder, as the server does. */
function serverView(frames: readonly Frame[]): { blocks: Fields[]; others: Frame[] } {
  const decoder = createHeaderBlockDecoder();
  const blocks: Fields[] = [];
  const others: Frame[] = [];
  let parts: Buffer[] = [];
  for (const f of frames) {
    if (f.type === FrameType.Headers || f.type === FrameType.Continuation) {
      assert.equal(f.flags & FrameFlag.Padded, 0, 'no padding on the server side');
      const start = f.type === FrameType.Headers && (f.flags & FrameFlag.Priority) !== 0 ? 5 : 0;
      parts.push(f.payload.subarray(start));
      if (f.flags & FrameFlag.EndHeaders) {
        const d = decoder.decode(Buffer.concat(parts));
        assert.equal(d.kind, 'ok');
        if (d.kind === 'ok') blocks.push(pairs(d.fields));
        parts = [];
      }
    } else {
      others.push(f);
    }
  }
  return { blocks, others };
}

function rewriteAll(chunks: readonly Buffer[], swallowSettingsAck = false): { out: Buffer; changes: AuthorityChange[] } {
  const changes: AuthorityChange[] = [];
  const rewriter = createClientFrameRewriter({ swallowSettingsAck, onChange: (c) => changes.push(c) });
  const out = Buffer.concat(chunks.map((c) => rewriter.push(c)));
  assert.equal(rewriter.malformed, undefined);
  return { out, changes };
}

void test('a scheme in :authority is stripped: http://127.0.0.1:2379 becomes 127.0.0.1:2379', () => {
  const encode = clientEncoder();
  const input = Buffer.concat([HTTP2_PREFACE, frame(FrameType.Headers, FrameFlag.EndHeaders, 1, encode(requestFields('http://127.0.0.1:2379')))]);
  const { out, changes } = rewriteAll([input]);
  assert.deepEqual(out.subarray(0, HTTP2_PREFACE.length), HTTP2_PREFACE);
  const { blocks } = serverView(splitFrames(out));
  assert.deepEqual(blocks, [requestFields('127.0.0.1:2379')]);
  assert.deepEqual(changes, [{ streamId: 1, from: 'http://127.0.0.1:2379', to: '127.0.0.1:2379' }]);
});

void test('dynamic-table state is kept across blocks (indexed fields, size updates)', () => {
  const encode = clientEncoder();
  const first = encode(requestFields('https://10.0.0.1:2379'));
  // The second block repeats the first's fields: the client encodes them as dynamic-table indexes.
  const second = encode([...requestFields('https://10.0.0.1:2379'), ['grpc-timeout', '5S']]);
  assert.ok([...second.subarray(0, 7)].some((b) => b >= 0x80 + 62), 'second block refers to dynamic-table entries');
  // A size update to 0 evicts everything, then literals again.
  const third = Buffer.concat([Buffer.from([0x20]), Buffer.from([0x3f, 0xe1, 0x1f]), encode([[':authority', 'http://h:1/x']])]);
  const input = Buffer.concat([
    HTTP2_PREFACE,
    frame(FrameType.Headers, FrameFlag.EndHeaders, 1, first),
    frame(FrameType.Headers, FrameFlag.EndHeaders | FrameFlag.EndStream, 3, second),
    frame(FrameType.Headers, FrameFlag.EndHeaders, 5, third),
  ]);
  const { out } = rewriteAll([input]);
  const frames = splitFrames(out);
  assert.deepEqual(frames.map((f) => [f.type, f.streamId, f.flags]), [
    [FrameType.Headers, 1, FrameFlag.EndHeaders],
    [FrameType.Headers, 3, FrameFlag.EndHeaders | FrameFlag.EndStream],
    [FrameType.Headers, 5, FrameFlag.EndHeaders],
  ]);
  const { blocks } = serverView(frames);
  assert.deepEqual(blocks, [
    requestFields('10.0.0.1:2379'),
    [...requestFields('10.0.0.1:2379'), ['grpc-timeout', '5S']],
    [[':authority', 'h:1']],
  ]);
});

void test('CONTINUATION, PADDED and PRIORITY are handled; input split at every byte gives the same output', () => {
  const encode = clientEncoder();
  const block = encode(requestFields('http://127.0.0.1:2379'));
  const priority = Buffer.from([0x00, 0x00, 0x00, 0x03, 0x0f]);
  const padded = Buffer.concat([Buffer.from([4]), priority, block.subarray(0, 10), Buffer.alloc(4)]);
  const input = Buffer.concat([
    HTTP2_PREFACE,
    frame(FrameType.Headers, FrameFlag.Padded | FrameFlag.Priority | FrameFlag.EndStream, 7, padded),
    frame(FrameType.Continuation, 0, 7, block.subarray(10, 20)),
    frame(FrameType.Continuation, FrameFlag.EndHeaders, 7, block.subarray(20)),
  ]);
  const whole = rewriteAll([input]).out;
  const frames = splitFrames(whole);
  assert.equal(frames.length, 1);
  assert.equal(frames[0].flags, FrameFlag.Priority | FrameFlag.EndStream | FrameFlag.EndHeaders);
  assert.deepEqual(frames[0].payload.subarray(0, 5), priority);
  assert.deepEqual(serverView(frames).blocks, [requestFields('127.0.0.1:2379')]);

  const bytes = [...input].map((b) => Buffer.from([b]));
  assert.deepEqual(rewriteAll(bytes).out, whole);
});

void test('non-header frames pass unchanged, byte for byte; the first SETTINGS ACK is swallowed when asked', () => {
  const encode = clientEncoder();
  const settings = frame(FrameType.Settings, 0, 0, Buffer.from([0, 4, 0, 0, 0xff, 0xff]));
  const ack = frame(FrameType.Settings, FrameFlag.Ack, 0);
  const windowUpdate = frame(FrameType.WindowUpdate, 0, 0, Buffer.from([0, 0, 0x10, 0]));
  const data = frame(FrameType.Data, FrameFlag.EndStream, 1, Buffer.from([0, 0, 0, 0, 3, 1, 2, 3]));
  const ping = frame(FrameType.Ping, 0, 0, Buffer.alloc(8, 7));
  const headers = frame(FrameType.Headers, FrameFlag.EndHeaders, 1, encode(requestFields('127.0.0.1:2379')));
  const input = Buffer.concat([HTTP2_PREFACE, settings, windowUpdate, ack, headers, data, ping, ack]);

  const { out: kept, changes } = rewriteAll([input]);
  const keptFrames = splitFrames(kept);
  assert.deepEqual(changes, []);
  const { blocks, others } = serverView(keptFrames);
  assert.deepEqual(blocks, [requestFields('127.0.0.1:2379')]);
  assert.deepEqual(Buffer.concat(others.map((f) => frame(f.type, f.flags, f.streamId, f.payload))), Buffer.concat([settings, windowUpdate, ack, data, ping, ack]));

  const { out: swallowed } = rewriteAll([input], true);
  const rest = serverView(splitFrames(swallowed)).others;
  assert.deepEqual(Buffer.concat(rest.map((f) => frame(f.type, f.flags, f.streamId, f.payload))), Buffer.concat([settings, windowUpdate, data, ping, ack]));
  // The empty SETTINGS the listener sends is a valid frame of its own.
  assert.deepEqual(splitFrames(EMPTY_SETTINGS), [{ type: FrameType.Settings, flags: 0, streamId: 0, payload: Buffer.alloc(0) }]);
});

void test('a big header block is split into HEADERS + CONTINUATION frames of at most 16 KiB', () => {
  const encode = clientEncoder();
  const big = 'x'.repeat(40_000);
  const block = encode([...requestFields('http://127.0.0.1:2379'), ['x-big', big]]);
  const input = Buffer.concat([
    HTTP2_PREFACE,
    frame(FrameType.Headers, 0, 1, block.subarray(0, 16_000)),
    frame(FrameType.Continuation, 0, 1, block.subarray(16_000, 32_000)),
    frame(FrameType.Continuation, FrameFlag.EndHeaders, 1, block.subarray(32_000)),
  ]);
  const frames = splitFrames(rewriteAll([input]).out);
  assert.ok(frames.length >= 3);
  assert.ok(frames.every((f) => f.payload.length <= 16_384));
  assert.deepEqual(frames.map((f) => f.type), [FrameType.Headers, ...frames.slice(1).map(() => FrameType.Continuation)]);
  assert.deepEqual(serverView(frames).blocks, [[...requestFields('127.0.0.1:2379'), ['x-big', big]]]);
});

void test('an authority that stays refused after repair is left out; bad HPACK passes through untouched', () => {
  const encode = clientEncoder();
  const input = Buffer.concat([HTTP2_PREFACE, frame(FrameType.Headers, FrameFlag.EndHeaders, 1, encode([[':path', '/'], [':authority', 'a b']]))]);
  const { out, changes } = rewriteAll([input]);
  assert.deepEqual(serverView(splitFrames(out)).blocks, [[[':path', '/']]]);
  assert.deepEqual(changes, [{ streamId: 1, from: 'a b', to: undefined }]);

  const rewriter = createClientFrameRewriter({ swallowSettingsAck: false });
  const broken = Buffer.concat([HTTP2_PREFACE, frame(FrameType.Headers, FrameFlag.EndHeaders, 1, Buffer.from([0xff, 0xff, 0xff])), frame(FrameType.Ping, 0, 0, Buffer.alloc(8))]);
  assert.deepEqual(rewriter.push(broken), broken);
  assert.match(rewriter.malformed ?? '', /HPACK/);
  assert.deepEqual(rewriter.push(Buffer.from('more')), Buffer.from('more'));
});
