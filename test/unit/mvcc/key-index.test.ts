/** KeyIndex: generations, lookups at past revisions, previous(), compaction (the worked example of key-index.ts). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KeyIndex } from '../../../server/mvcc/key-index.js';
import type { Revision } from '../../../server/mvcc/revision.js';

const r = (main: bigint, sub = 0): Revision => ({ main, sub });
const show = (ki: KeyIndex): string => ki.generations().map((g) => `[${g.map((x) => `${x.main}.${x.sub}`).join(',')}]`).join('');

/** put a@2, put a@3, delete a@4, put a@6, put a@7. */
function example(): KeyIndex {
  const ki = new KeyIndex('a');
  ki.put(2, 0, 2, 1, 0n);
  ki.put(3, 0, 2, 2, 0n);
  ki.tombstone(4, 0);
  ki.put(6, 0, 6, 1, 0n);
  ki.put(7, 0, 6, 2, 5n);
  return ki;
}

function compacted(at: bigint): { ki: KeyIndex; kept: string[]; empty: boolean } {
  const ki = example();
  const kept: string[] = [];
  const empty = ki.compact(at, (m, sub) => kept.push(`${m}.${sub}`));
  return { ki, kept, empty };
}

void describe('KeyIndex', () => {
  void it('groups revisions in generations ended by tombstones', () => {
    const ki = example();
    assert.equal(show(ki), '[2.0,3.0,4.0][6.0,7.0]');
    assert.ok(ki.isLive);
    assert.deepEqual([ki.created, ki.version, ki.lease], [6, 2, 5n]);
    assert.equal(ki.latest()?.main, 7n);
    assert.deepEqual([ki.revs, ki.ends], [[2, 0, 3, 0, 4, 0, 6, 0, 7, 0], [3]]);
  });

  void it('answers which revision is visible at a past revision', () => {
    const ki = example();
    const at = (main: bigint): string => ki.at(main)?.main.toString() ?? 'none';
    assert.deepEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n, 9n].map(at), ['none', '2', '3', 'none', 'none', '6', '7', '7']);
  });

  void it('finds the previous revision inside a generation only', () => {
    const ki = example();
    assert.equal(ki.previous(r(3n))?.main, 2n);
    assert.equal(ki.previous(r(4n))?.main, 3n);
    assert.equal(ki.previous(r(2n)), undefined);
    assert.equal(ki.previous(r(6n)), undefined);
    assert.equal(ki.previous(r(7n))?.main, 6n);
    assert.equal(ki.previous(r(5n)), undefined);
    assert.ok(ki.has(r(4n)) && !ki.has(r(5n)) && !ki.has(r(3n, 1)));
  });

  void it('a tombstone needs a live key', () => {
    const ki = new KeyIndex('a');
    assert.throws(() => ki.tombstone(2, 0));
    assert.equal(ki.restoreTombstone(2, 0), false);
    assert.equal(show(ki), '[]');
  });

  void it('compacts as in the worked example', () => {
    const cases: [bigint, string, string[], boolean][] = [
      [1n, '[2.0,3.0,4.0][6.0,7.0]', [], false],
      [2n, '[2.0,3.0,4.0][6.0,7.0]', ['2.0'], false],
      [3n, '[3.0,4.0][6.0,7.0]', ['3.0'], false],
      [4n, '[6.0,7.0]', [], false],
      [5n, '[6.0,7.0]', [], false],
      [6n, '[6.0,7.0]', ['6.0'], false],
      [7n, '[7.0]', ['7.0'], false],
      [100n, '[7.0]', ['7.0'], false],
    ];
    for (const [at, gens, kept, empty] of cases) {
      const got = compacted(at);
      assert.deepEqual([show(got.ki), got.kept, got.empty], [gens, kept, empty], `compact(${at})`);
    }
  });

  void it('a deleted key is empty once compacted past its tombstone', () => {
    const ki = new KeyIndex('a');
    ki.put(2, 0, 2, 1, 0n);
    ki.put(3, 1, 2, 2, 0n);
    ki.tombstone(5, 0);
    assert.equal(ki.isLive, false);
    assert.deepEqual([ki.created, ki.version, ki.lease], [0, 0, 0n]);
    assert.equal(ki.compact(4n, () => undefined), false);
    assert.equal(show(ki), '[3.1,5.0][]');
    assert.equal(ki.compact(5n, () => undefined), true);
  });

  void it('lists the revisions at or below a revision', () => {
    const ki = example();
    const seen: number[] = [];
    ki.forEachAtOrBelow(6n, (m) => seen.push(m));
    assert.deepEqual(seen, [2, 3, 4, 6]);
  });
});
