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
      assert.deepEqual(s.end(), { ok: true, values: [] });
    }),
  );
});

void test('any top-level value is passed on as text (the reader refuses it); truncation and size are errors', () => {
  const all = (text: string): string[] => {
    const s = createJsonObjectStream(100);
    const pushed = s.push(text);
    assert.ok(pushed.ok);
    const ended = s.end();
    assert.ok(ended.ok);
    return [...pushed.values, ...ended.values];
  };
  assert.deepEqual(all('[1] 5 "x\\"y" true{"a":}x}null\n nul'), ['[1]', '5', '"x\\"y"', 'true', '{"a":}', 'x', '}', 'null', 'nul']);
  assert.deepEqual(all('{"a":1]'), ['{"a":1]']);
  const s = createJsonObjectStream(100);
  assert.deepEqual(s.push('{"a":'), { ok: true, values: [] });
  assert.deepEqual(s.end(), { ok: false, message: 'unexpected EOF', values: [] });
  const str = createJsonObjectStream(100);
  assert.ok(str.push('"abc').ok);
  assert.equal(str.end().ok, false);
  const dead = createJsonObjectStream(10);
  assert.deepEqual(dead.push('{} {"a":"0123456789"'), { ok: false, message: 'request message larger than max (17 vs. 10)', values: ['{}'] });
  assert.equal(dead.push('{}').ok, false);
  assert.equal(dead.end().ok, false);
});

void test('decodeJsonText: empty and null bodies are the empty message', () => {
  for (const text of ['', '  \n', 'null']) {
    const d = decodeJsonText({ schema: RangeRequest, fns: pb.RangeRequest }, text);
    assert.ok(d.ok);
    assert.equal(d.value.key.length, 0);
  }
});
