/**
 * The stream framing: any split of an encoded batch decodes to the same frames (property),
 * small frames share chunks and large ones pass uncopied, bad headers are errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeBatch, encodeControl, FrameDecoder, FrameType } from '../../../server/peer/frame-codec.js';

void test('decoding an encoded stream cut anywhere gives back the frames in order (property)', () => {
  fc.assert(
    fc.property(
      fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 30 }),
      fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 20 }),
      fc.integer({ min: 1, max: 200 }),
      (payloads, cuts, coalesceBelow) => {
        const frames = payloads.map((p) => Buffer.from(p));
        const wire = Buffer.concat([encodeControl(FrameType.Ping, Buffer.from([1, 2, 3, 4])), ...encodeBatch(frames, coalesceBelow)]);
        const decoder = new FrameDecoder(1024);
        const got: Buffer[] = [];
        const pings: Buffer[] = [];
        let at = 0;
        for (let i = 0; at < wire.length; i++) {
          const n = cuts[i % cuts.length] as number;
          const out = decoder.push(wire.subarray(at, at + n));
          at += n;
          assert.ok(out.ok);
          got.push(...out.data);
          for (const c of out.control) pings.push(c.payload);
        }
        assert.equal(decoder.buffered, 0);
        assert.deepEqual(got.map((b) => [...b]), frames.map((b) => [...b]));
        assert.deepEqual(pings.map((b) => [...b]), [[1, 2, 3, 4]]);
      },
    ),
    { numRuns: 300 },
  );
});

void test('small frames share one chunk; a large payload is passed through uncopied', () => {
  const big = Buffer.alloc(100_000, 7);
  const chunks = encodeBatch([Buffer.from('a'), Buffer.from('bc'), big, Buffer.from('d')], 64 * 1024);
  assert.equal(chunks.length, 3);
  assert.equal(chunks[0]?.length, 5 + 1 + 5 + 2 + 5);
  assert.equal(chunks[1], big);
  assert.deepEqual([...(chunks[2] ?? [])], [1, 0, 0, 0, 1, 'd'.charCodeAt(0)]);
  assert.equal(encodeBatch([]).length, 0);
});

void test('oversized frames, long control frames and unknown types are errors', () => {
  const header = (type: number, len: number): Buffer => {
    const b = Buffer.alloc(5);
    b[0] = type;
    b.writeUInt32BE(len, 1);
    return b;
  };
  assert.deepEqual(new FrameDecoder(10).push(header(1, 11)), { ok: false, reason: 'frame of 11 bytes exceeds the limit of 10' });
  assert.equal(new FrameDecoder(10).push(header(2, 65)).ok, false);
  assert.deepEqual(new FrameDecoder(10).push(header(9, 0)), { ok: false, reason: 'unknown frame type 9' });
  // A header split over pushes is checked once complete.
  const d = new FrameDecoder(10);
  assert.equal(d.push(header(1, 11).subarray(0, 2)).ok, true);
  assert.equal(d.push(header(1, 11).subarray(2)).ok, false);
  // Zero-length frames exist.
  const z = new FrameDecoder(10).push(Buffer.concat(encodeBatch([Buffer.alloc(0), Buffer.alloc(0)])));
  assert.ok(z.ok);
  assert.equal(z.data.length, 2);
});
