/** Revision key encoding: layout, tombstone mark, and that byte order equals revision order. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  compareRevisions,
  encodeRevisionKey,
  isRevisionKey,
  isTombstoneKey,
  isTombstoneKeyAt,
  mainOfKey,
  mainOfKeyAt,
  revisionId,
  subOfKey,
  subOfKeyAt,
} from '../../../server/mvcc/revision.js';
import { RevisionSet } from '../../../server/mvcc/revision-set.js';

void describe('revision keys', () => {
  void it('lays out main BE, "_", sub BE and an optional "t"', () => {
    assert.equal(encodeRevisionKey(2n, 1, false).toString('hex'), '0000000000000002' + '5f' + '0000000000000001');
    const t = encodeRevisionKey(0x0102030405060708n, 3, true);
    assert.equal(t.toString('hex'), '0102030405060708' + '5f' + '0000000000000003' + '74');
    assert.ok(isTombstoneKey(t));
    assert.ok(isRevisionKey(t));
    assert.equal(mainOfKey(t), 0x0102030405060708n);
    assert.equal(subOfKey(t), 3);
    assert.ok(!isTombstoneKey(encodeRevisionKey(1n, 0, false)));
    assert.ok(!isRevisionKey(Buffer.from('consistent_index')));
  });

  void it('sorts keys in revision order (tombstone mark after its plain key)', () => {
    const rev = fc.record({ main: fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }), sub: fc.integer({ min: 0, max: 0xffffffff }) });
    fc.assert(
      fc.property(rev, rev, fc.boolean(), fc.boolean(), (a, c, ta, tc) => {
        const ka = encodeRevisionKey(a.main, a.sub, ta);
        const kc = encodeRevisionKey(c.main, c.sub, tc);
        const byRev = Math.sign(compareRevisions(a, c));
        const byKey = Math.sign(Buffer.compare(ka, kc));
        if (byRev !== 0) assert.equal(byKey, byRev);
        else assert.equal(byKey, ta === tc ? 0 : ta ? 1 : -1);
        assert.equal(mainOfKey(ka), a.main);
        assert.equal(subOfKey(ka), a.sub);
        assert.equal(revisionId(a.main, a.sub) === revisionId(c.main, c.sub), byRev === 0);
      }),
    );
  });

  void it('reads a key in place behind a prefix (bulk reads), main as a number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: 0xffffffff }), fc.boolean(), fc.integer({ min: 0, max: 3 }), (main, sub, tomb, pad) => {
        const key = Buffer.concat([Buffer.alloc(pad, 0x7f), encodeRevisionKey(BigInt(main), sub, tomb)]);
        assert.equal(mainOfKeyAt(key, pad), main);
        assert.equal(subOfKeyAt(key, pad), sub);
        assert.equal(isTombstoneKeyAt(key, pad), tomb);
      }),
    );
    assert.throws(() => mainOfKeyAt(encodeRevisionKey(1n << 53n, 0, false), 0), /beyond 2\^53/);
  });
});

void describe('RevisionSet', () => {
  void it('holds exactly the revisions added, several subs of one main included', () => {
    const pair = fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 4 }));
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 60 }), fc.array(pair, { maxLength: 60 }), (added, probes) => {
        const set = new RevisionSet();
        const model = new Set<string>();
        for (const [m, s] of added) {
          set.add(m, s);
          model.add(`${m}.${s}`);
        }
        for (const [m, s] of [...added, ...probes]) assert.equal(set.has(m, s), model.has(`${m}.${s}`), `${m}.${s}`);
      }),
    );
  });
});
