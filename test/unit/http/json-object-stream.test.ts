/** The request-stream splitter: values across arbitrary chunk boundaries, errors are sticky. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createJsonObjectStream } from '../../../server/api/http/json-object-stream.js';
import { decodeJsonText, withOriginalFieldNames } from '../../../server/api/http/json-decode.js';
import * as pb from '../../../proto/gen/etcd/rpc.js';

void test('objects split anywhere (inside strings and escapes) come out whole and in order', () => {
  const objects = [{ a: 1 }, { s: 'x}{"\\\\"y', n: [1, { b: [] }] }, null, { e: '\u00e9\u4e2d' }];
  const text = objects.map((o) => JSON.stringify(o)).join('\n ');
  fc.assert(
    fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 8 }), (cuts) => {
      const points = [...new Set(cuts)].sort((x, y) => x - y);
      const s = createJsonObjectStream(1 << 20);
      const out: unknown[] = [];
      let prev = 0;
      for (const p of [...points, text.length]) {
        const r = s.push(text.slice(prev, p));
        assert.ok(r.ok);
        out.push(...r.values);
        prev = p;
      }
      assert.deepEqual(out, objects);
      assert.deepEqual(s.end(), { ok: true });
    }),
  );
});

void test('non-object top-level values, malformed objects and truncation are errors', () => {
  assert.equal(createJsonObjectStream(100).push('[1]').ok, false);
  assert.equal(createJsonObjectStream(100).push('{"a":}').ok, false);
  const s = createJsonObjectStream(100);
  assert.ok(s.push('{"a":').ok);
  assert.equal(s.end().ok, false);
  const dead = createJsonObjectStream(100);
  assert.equal(dead.push('x').ok, false);
  assert.equal(dead.push('{}').ok, false);
  assert.equal(createJsonObjectStream(10).push('{"a":"0123456789"').ok, false);
});

void test('withOriginalFieldNames adds snake_case copies at every depth, keeps originals', () => {
  assert.deepEqual(withOriginalFieldNames({ rangeEnd: 'x', success: [{ requestPut: { prevKv: true } }], TTL: 1 }), {
    rangeEnd: 'x',
    range_end: 'x',
    success: [{ requestPut: { prevKv: true, prev_kv: true }, request_put: { prevKv: true, prev_kv: true } }],
    TTL: 1,
    _t_t_l: 1,
  });
  assert.deepEqual(withOriginalFieldNames({ range_end: 'a', rangeEnd: 'b' }), { range_end: 'a', rangeEnd: 'b' });
});

void test('decodeJsonText: empty and null bodies are the empty message', () => {
  for (const text of ['', '  \n', 'null']) {
    const d = decodeJsonText(pb.RangeRequest, text);
    assert.ok(d.ok);
    assert.equal(d.value.key.length, 0);
  }
});
