/** The exact JSON reader: Go's grammar and error texts, numbers kept as their literal text. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { scanJson, type JsonValue } from '../../../server/api/http/go-json-scan.js';
import { goQuoteChar } from '../../../server/api/http/go-quote.js';

const message = (text: string, mode: 'decoder' | 'document' = 'decoder'): string => {
  const r = scanJson(text, mode);
  assert.equal(r.ok, false, `expected an error for ${JSON.stringify(text)}`);
  return r.ok ? '' : r.message;
};

void test('numbers keep every digit; strings keep raw text and decoded value', () => {
  const r = scanJson('{"ID": 3867644404369375500, "n":-0.5e+3, "s":"a\\u00e9\\n\\ud83d\\ude00", "l":[true,false,null]}', 'decoder');
  assert.ok(r.ok);
  assert.deepEqual(r.value, {
    kind: 'object',
    entries: [
      ['ID', { kind: 'number', text: '3867644404369375500' }],
      ['n', { kind: 'number', text: '-0.5e+3' }],
      ['s', { kind: 'string', raw: 'a\\u00e9\\n\\ud83d\\ude00', value: 'a\u00e9\n\u{1f600}' }],
      ['l', { kind: 'array', items: [{ kind: 'bool', value: true }, { kind: 'bool', value: false }, { kind: 'null' }] }],
    ],
  } satisfies JsonValue);
});

void test('unpaired surrogate escapes become U+FFFD, as in Go; duplicate keys are all kept', () => {
  const r = scanJson('{"a":"\\ud800x\\udc00","a":1}', 'document');
  assert.ok(r.ok && r.value?.kind === 'object');
  assert.deepEqual(r.value.entries, [
    ['a', { kind: 'string', raw: '\\ud800x\\udc00', value: '\ufffdx\ufffd' }],
    ['a', { kind: 'number', text: '1' }],
  ]);
});

void test('decoder mode: one value, the rest ignored; whitespace only is no value; truncation is unexpected EOF', () => {
  const one = scanJson(' {"a":1} {"b":', 'decoder');
  assert.ok(one.ok);
  assert.deepEqual(one.value, { kind: 'object', entries: [['a', { kind: 'number', text: '1' }]] });
  assert.deepEqual(scanJson(' \n\t', 'decoder'), { ok: true, value: undefined });
  for (const t of ['{', '{"a"', '{"a":', '{"a":1', '{"a":"x', '{"a":"\\', '{"a":"\\u12', '[1,', 'nul', '-', '{"a":1.', '{"a":tr']) {
    assert.equal(message(t), 'unexpected EOF', t);
  }
  assert.deepEqual(scanJson('5', 'decoder'), { ok: true, value: { kind: 'number', text: '5' } });
});

void test('document mode: trailing text and early ends as json.Unmarshal words them', () => {
  assert.equal(message('01', 'document'), "invalid character '1' after top-level value");
  assert.equal(message('0x10', 'document'), "invalid character 'x' after top-level value");
  assert.equal(message('', 'document'), 'unexpected end of JSON input');
  assert.equal(message('{', 'document'), 'unexpected end of JSON input');
  assert.equal(message('1.', 'document'), "invalid character ' ' after decimal point in numeric literal");
  assert.equal(message('-', 'document'), "invalid character ' ' in numeric literal");
  assert.equal(message('1e', 'document'), "invalid character ' ' in exponent of numeric literal");
  assert.equal(message('tru', 'document'), "invalid character ' ' in literal true (expecting 'e')");
  assert.deepEqual(scanJson(' 5 ', 'document'), { ok: true, value: { kind: 'number', text: '5' } });
});

void test("syntax errors carry Go's scanner texts", () => {
  const cases: Array<readonly [string, string]> = [
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['{"a":01}', "invalid character '1' after object key:value pair"],
    ['{"a":"\t"}', "invalid character '\\t' in string literal"],
    ['{"a":"\\x"}', "invalid character 'x' in string escape code"],
    ['{"a":"\\u00zz"}', "invalid character 'z' in \\u hexadecimal character escape"],
    ['{"a":-x}', "invalid character 'x' in numeric literal"],
    ['{"a":1.x}', "invalid character 'x' after decimal point in numeric literal"],
    ['{"a":1e+}', "invalid character '}' in exponent of numeric literal"],
    ['{"a":trux}', "invalid character 'x' in literal true (expecting 'e')"],
    ['{"a":nil}', "invalid character 'i' in literal null (expecting 'u')"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['\ufeff{}', "invalid character 'ï' looking for beginning of value"],
    ['\\', "invalid character '\\\\' looking for beginning of value"],
  ];
  for (const [text, expected] of cases) assert.equal(message(text), expected, text);
});

void test('nesting deeper than 10000 is refused as Go does; 10000 is fine', () => {
  assert.ok(scanJson('['.repeat(10000) + ']'.repeat(10000), 'document').ok);
  assert.equal(message('['.repeat(10001)), "invalid character '[' exceeded max depth");
});

void test('goQuoteChar: control and non-ASCII bytes as strconv.Quote prints them', () => {
  assert.equal(goQuoteChar('\u0001'), "'\\x01'");
  assert.equal(goQuoteChar('\u007f'), "'\\x7f'");
  assert.equal(goQuoteChar('"'), `'"'`);
  assert.equal(goQuoteChar('\u0085'), "'Â'"); // the scanner stops at the lead byte 0xC2
  assert.equal(goQuoteChar('\u00e9'), "'Ã'");
});

void test('any value JSON.stringify produces reads back to the same data (integers exactly)', () => {
  const toPlain = (v: JsonValue): unknown => {
    switch (v.kind) {
      case 'object':
        return Object.fromEntries(v.entries.map(([k, x]) => [k, toPlain(x)]));
      case 'array':
        return v.items.map(toPlain);
      case 'string':
        return v.value;
      case 'number':
        return Number(v.text);
      case 'bool':
        return v.value;
      case 'null':
        return null;
    }
  };
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const text = JSON.stringify(value);
      const r = scanJson(text, 'document');
      assert.ok(r.ok, text);
      assert.deepEqual(toPlain(r.value!), JSON.parse(text));
    }),
  );
  fc.assert(
    fc.property(fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }), (n) => {
      const r = scanJson(`{"id":${n}}`, 'decoder');
      assert.ok(r.ok && r.value?.kind === 'object');
      assert.deepEqual(r.value.entries[0]![1], { kind: 'number', text: n.toString() });
    }),
  );
});
