/**
 * The dynamic table against a plain-array model (RFC 7541 §4): any sequence of inserts and
 * size changes leaves the same entries, newest first, and the same size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DynamicTable } from '../../../../server/transport/hpack/dynamic-table.js';

type Op = { readonly add: readonly [string, string] } | { readonly maxSize: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 60 })).map((add) => ({ add })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 600 }).map((maxSize) => ({ maxSize })) },
);

void test('inserts, evictions and size changes follow the RFC size rule', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 600 }), fc.array(op, { maxLength: 200 }), (initial, ops) => {
      const table = new DynamicTable(initial);
      let model: [string, string][] = [];
      let max = initial;
      const size = (): number => model.reduce((n, [a, b]) => n + a.length + b.length + 32, 0);
      for (const o of ops) {
        if ('add' in o) {
          table.add({ name: o.add[0], value: o.add[1], neverIndex: false });
          if (o.add[0].length + o.add[1].length + 32 > max) model = [];
          else model.unshift([o.add[0], o.add[1]]);
        } else {
          table.setMaxSize(o.maxSize);
          max = o.maxSize;
        }
        while (size() > max) model.pop();
        assert.equal(table.size, size());
        assert.equal(table.length, model.length);
        for (let i = 1; i <= model.length; i++) assert.deepEqual([table.get(i)?.name, table.get(i)?.value], model[i - 1]);
        assert.equal(table.get(0), undefined);
        assert.equal(table.get(model.length + 1), undefined);
      }
    }),
  );
});
