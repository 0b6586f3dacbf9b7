/** The request-stream splitter: values across arbitrary chunk boundaries, errors are sticky. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createJsonObjectStream } from '../../../server/api/http/json-object-stream.js';
import { RangeRequest } from '../../../server/api/http/gateway-request-schemas.js';
import { decodeJsonText } from '../../../server/api/http/json-decode.js';
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
      assert.deepEqual(out, objects.map((o) => JSON.stringify(o)));
      assert.deepEqual(s.end(), { ok: true });
    }),
  );
});

void test('non-object top-level values and truncation are errors (Go wording); object insides are left to the reader', () => {
  assert.deepEqual(createJsonObjectStream(100).push('[1]'), { ok: false, message: "invalid character '[' looking for beginning of value", values: [] });
  assert.deepEqual(createJsonObjectStream(100).push('{"a":}'), { ok: true, values: ['{"a":}'] });
  const s = createJsonObjectStream(100);
  assert.ok(s.push('{"a":').ok);
  assert.deepEqual(s.end(), { ok: false, message: 'unexpected EOF' });
  const dead = createJsonObjectStream(100);
  assert.equal(dead.push('x').ok, false);
  assert.equal(dead.push('{}').ok, false);
  assert.equal(createJsonObjectStream(10).push('{"a":"0123456789"').ok, false);
});

void test('decodeJsonText: empty and null bodies are the empty message', () => {
  for (const text of ['', '  \n', 'null']) {
    const d = decodeJsonText({ schema: RangeRequest, fns: pb.RangeRequest }, text);
    assert.ok(d.ok);
    assert.equal(d.value.key.length, 0);
  }
});
