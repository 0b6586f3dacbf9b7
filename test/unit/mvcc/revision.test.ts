/** Revision key encoding: layout, tombstone mark, and that byte order equals revision order. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  compareRevisions,
  encodeRevisionKey,
  isRevisionKey,
  isTombstoneKey,
  mainOfKey,
  revisionId,
  subOfKey,
} from '../../../server/mvcc/revision.js';

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
});
