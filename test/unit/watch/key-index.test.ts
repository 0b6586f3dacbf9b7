// The key → watcher index: interval treap and single-key map agree with a brute-force scan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IntervalIndex } from '../../../server/watch/interval-index.js';
import { KeyIndex } from '../../../server/watch/key-index.js';
import { inRange, watchRange, type KeyRange } from '../../../server/watch/key-range.js';

const key = fc.string({ unit: fc.constantFrom('\x00', 'a', 'b', 'c', '\xff'), maxLength: 3 });

type Op = { add: [string, string | null] } | { del: number } | { stab: string };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ add: fc.tuple(key, fc.option(key, { nil: null })) }),
  fc.record({ del: fc.nat() }),
  fc.record({ stab: key }),
);

void test('IntervalIndex.stab returns exactly the intervals containing the point', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
      const index = new IntervalIndex<number>();
      const live = new Map<number, [string, string | null]>();
      let next = 0;
      for (const o of ops) {
        if ('add' in o) {
          index.add(o.add[0], o.add[1], next, next);
          live.set(next, o.add);
          next++;
        } else if ('del' in o) {
          const ids = [...live.keys()];
          if (ids.length === 0) continue;
          const id = ids[o.del % ids.length] as number;
          assert.equal(index.delete((live.get(id) as [string, string | null])[0], id), true);
          live.delete(id);
        } else {
          const got: number[] = [];
          index.stab(o.stab, (v) => got.push(v));
          const want = [...live]
            .filter(([, [s, e]]) => s <= o.stab && (e === null || o.stab < e))
            .map(([id]) => id);
          assert.deepEqual(got.sort((a, b) => a - b), want.sort((a, b) => a - b));
        }
        assert.equal(index.size, live.size);
      }
    }),
    { numRuns: 300 },
  );
});

void test('IntervalIndex.delete of an absent entry reports false', () => {
  const index = new IntervalIndex<string>();
  index.add('a', 'c', 1, 'x');
  assert.equal(index.delete('a', 2), false);
  assert.equal(index.delete('b', 1), false);
  assert.equal(index.delete('a', 1), true);
  assert.equal(index.size, 0);
});

void test('KeyIndex.match = brute force over single keys, ranges and open ranges', () => {
  const range = fc.tuple(key, fc.constantFrom('', '\x00', 'b', 'bb', 'c', '\xff')).map(([s, e]) => watchRange(Buffer.from(s, 'latin1'), Buffer.from(e, 'latin1')));
  fc.assert(
    fc.property(fc.array(range, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 20 }), fc.array(key, { maxLength: 20 }), (ranges, dels, points) => {
      const items = ranges.filter((r): r is KeyRange => r !== undefined).map((r, seq) => ({ seq, range: r }));
      const index = new KeyIndex<(typeof items)[number]>();
      for (const it of items) index.add(it);
      const live = new Set(items);
      for (const d of dels) {
        const arr = [...live];
        if (arr.length === 0) break;
        const it = arr[d % arr.length] as (typeof items)[number];
        assert.equal(index.delete(it), true);
        assert.equal(index.delete(it), false);
        live.delete(it);
      }
      assert.equal(index.size, live.size);
      for (const p of points) {
        const got: number[] = [];
        index.match(p, (it) => got.push(it.seq));
        const want = [...live].filter((it) => inRange(it.range, p)).map((it) => it.seq);
        assert.deepEqual(got.sort((a, b) => a - b), want.sort((a, b) => a - b));
      }
    }),
    { numRuns: 300 },
  );
});
