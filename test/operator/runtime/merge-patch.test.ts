// JSON merge patch (RFC 7386): the RFC's example cases, and idempotence as a property.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyMergePatch } from '../../../operator/runtime/kube/merge-patch.js';

const CASES: ReadonlyArray<readonly [unknown, unknown, unknown]> = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

for (const [target, patch, result] of CASES) {
  void test(`${JSON.stringify(target)} + ${JSON.stringify(patch)} = ${JSON.stringify(result)}`, () => {
    const before = structuredClone(target);
    assert.deepEqual(applyMergePatch(target, patch), result);
    assert.deepEqual(target, before, 'the target is not modified');
  });
}

void test('applying a patch twice is the same as once', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.jsonValue(), (target, patch) => {
      const once = applyMergePatch(target, patch);
      assert.deepEqual(applyMergePatch(once, patch), once);
    }),
  );
});

void test('a __proto__ key is an ordinary member', () => {
  const patched = applyMergePatch({}, JSON.parse('{"__proto__":{"x":1}}')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(patched), ['__proto__']);
  assert.equal((patched as { x?: unknown }).x, undefined);
});
