/** RecordLedger: ordered adds, inserts and replacements, (lazy) removals, frozen copies; a property test against a sorted-map model. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RecordLedger, recordBytes, type RecordSizes } from '../../../server/mvcc/record-ledger.js';

/** "main.sub[t]:len" per record. */
function show(r: RecordSizes): string[] {
  const out: string[] = [];
  for (let i = 0; i < r.length; i++) out.push(`${r.main[i]}.${r.sub[i]}${r.tombstone[i] === 1 ? 't' : ''}:${r.valueLength[i]}`);
  return out;
}

function assertTrimmed(r: RecordSizes): void {
  for (const a of [r.main, r.sub, r.tombstone, r.valueLength]) assert.equal(a.length, r.length);
}

void describe('RecordLedger', () => {
  void it('keeps records added in order', () => {
    const l = new RecordLedger();
    l.add(2, 0, false, 5);
    l.add(3, 0, false, 7);
    l.add(3, 1, true, 1);
    assert.equal(l.length, 3);
    const r = l.freeze();
    assertTrimmed(r);
    assert.deepEqual(show(r), ['2.0:5', '3.0:7', '3.1t:1']);
  });

  void it('inserts an out-of-order record in place and replaces one at an existing revision', () => {
    const l = new RecordLedger();
    l.add(5, 0, false, 1);
    l.add(2, 0, false, 2);
    l.add(3, 1, false, 3);
    l.add(3, 0, true, 4);
    l.add(5, 0, true, 9);
    l.add(2, 0, false, 8);
    assert.equal(l.length, 4);
    assert.deepEqual(show(l.freeze()), ['2.0:8', '3.0t:4', '3.1:3', '5.0t:9']);
  });

  void it('removes records, ignores absent ones, and revives a removed revision on add', () => {
    const l = new RecordLedger();
    for (let m = 1; m <= 6; m++) l.add(m, 0, m % 2 === 0, m * 10);
    l.remove(2, 0);
    l.remove(2, 0);
    l.remove(4, 1);
    l.remove(99, 0);
    assert.equal(l.length, 5);
    assert.deepEqual(show(l.freeze()), ['1.0:10', '3.0:30', '4.0t:40', '5.0:50', '6.0t:60']);
    l.add(2, 0, false, 7);
    l.remove(6, 0);
    l.remove(5, 0);
    l.remove(4, 0);
    l.remove(3, 0); // dead outnumber live here: the arrays are compacted
    assert.equal(l.length, 2);
    assert.deepEqual(show(l.freeze()), ['1.0:10', '2.0:7']);
    l.add(4, 0, false, 1);
    l.add(3, 0, true, 2);
    assert.deepEqual(show(l.freeze()), ['1.0:10', '2.0:7', '3.0t:2', '4.0:1']);
  });

  void it('grows past its initial capacity and removes many records', () => {
    const l = new RecordLedger();
    const n = 100_000;
    for (let i = 0; i < n; i++) l.add(2 + Math.floor(i / 3), i % 3, i % 7 === 0, i % 1000);
    for (let i = 0; i < n; i += 2) l.remove(2 + Math.floor(i / 3), i % 3);
    assert.equal(l.length, n / 2);
    const r = l.freeze();
    assertTrimmed(r);
    for (let j = 0; j < r.length; j++) {
      const i = 2 * j + 1;
      assert.equal(r.main[j], 2 + Math.floor(i / 3));
      assert.equal(r.sub[j], i % 3);
      assert.equal(r.tombstone[j], i % 7 === 0 ? 1 : 0);
      assert.equal(r.valueLength[j], i % 1000);
    }
  });

  void it('freezes a copy that later changes do not affect', () => {
    const l = new RecordLedger();
    l.add(2, 0, false, 5);
    l.add(3, 0, false, 6);
    const before = l.freeze();
    l.add(2, 0, true, 1);
    l.add(4, 0, false, 7);
    l.remove(3, 0);
    assert.deepEqual(show(before), ['2.0:5', '3.0:6']);
    const withDead = l.freeze();
    l.add(3, 0, false, 9);
    assert.deepEqual(show(withDead), ['2.0t:1', '4.0:7']);
    assert.deepEqual(show(l.freeze()), ['2.0t:1', '3.0:9', '4.0:7']);
  });

  void it('equals a sorted-map model under random adds and removes', () => {
    const rev = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 3 }));
    const op = fc.oneof(
      { weight: 3, arbitrary: fc.record({ add: fc.constant(true), rev, tombstone: fc.boolean(), len: fc.integer({ min: 0, max: 100 }) }) },
      { weight: 2, arbitrary: fc.record({ add: fc.constant(false), rev }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const l = new RecordLedger();
        const model = new Map<string, { main: number; sub: number; text: string }>();
        for (const o of ops) {
          const [main, sub] = o.rev;
          const id = `${main}.${sub}`;
          if (o.add) {
            l.add(main, sub, o.tombstone, o.len);
            model.set(id, { main, sub, text: `${id}${o.tombstone ? 't' : ''}:${o.len}` });
          } else {
            l.remove(main, sub);
            model.delete(id);
          }
        }
        const expected = [...model.values()].sort((a, b) => a.main - b.main || a.sub - b.sub).map((e) => e.text);
        assert.equal(l.length, expected.length);
        assert.deepEqual(show(l.freeze()), expected);
      }),
    );
  });

  void it('space accounting: the header example (in use falls at a removal, allocated only at shrinkToFit)', () => {
    const l = new RecordLedger();
    l.add(2, 0, false, 5);
    l.add(3, 0, false, 7);
    l.add(3, 1, true, 1);
    assert.deepEqual([l.bytesInUse, l.bytesAllocated], [113, 113]);
    l.remove(2, 0);
    assert.deepEqual([l.bytesInUse, l.bytesAllocated], [75, 113]);
    l.add(4, 0, false, 10); // reuses freed space: allocated does not grow
    assert.deepEqual([l.bytesInUse, l.bytesAllocated], [118, 118]);
    l.remove(4, 0);
    l.shrinkToFit();
    assert.deepEqual([l.bytesInUse, l.bytesAllocated], [75, 75]);
    assert.equal(RecordLedger.of(l.freeze()).bytesInUse, 75);
    assert.equal(RecordLedger.of(l.freeze()).bytesAllocated, 75);
  });

  void it('space accounting equals a model: in use = sum of live records, allocated = its high-water mark since the last shrink', () => {
    const rev = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 3 }));
    const op = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), rev, tombstone: fc.boolean(), len: fc.integer({ min: 0, max: 5000 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), rev }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('shrink' as const) }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const l = new RecordLedger();
        const model = new Map<string, number>();
        let peak = 0;
        const inUse = (): number => [...model.values()].reduce((a, v) => a + v, 0);
        for (const o of ops) {
          if (o.kind === 'add') {
            l.add(o.rev[0], o.rev[1], o.tombstone, o.len);
            model.set(`${o.rev[0]}.${o.rev[1]}`, recordBytes(o.tombstone, o.len));
          } else if (o.kind === 'remove') {
            l.remove(o.rev[0], o.rev[1]);
            model.delete(`${o.rev[0]}.${o.rev[1]}`);
          } else {
            l.shrinkToFit();
            peak = inUse();
          }
          peak = Math.max(peak, inUse());
          assert.equal(l.bytesInUse, inUse());
          assert.equal(l.bytesAllocated, peak);
        }
      }),
    );
  });
});
