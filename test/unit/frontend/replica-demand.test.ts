/**
 * ReplicaDemand: a front end asks for a read replica at the first serializable Range (once,
 * until the image comes), keeps it while such reads keep coming, drops it after `idleMs`
 * without one, asks again at the next one, and after a lost replica asks again at once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_REPLICA_IDLE_MS, ReplicaDemand } from '../../../server/frontend/replica-demand.js';

void describe('ReplicaDemand', () => {
  void it('asks once at the first serializable read, not again while the image is on its way', () => {
    const d = new ReplicaDemand(1000);
    assert.equal(d.asked(0), true);
    assert.equal(d.asked(10), false);
    assert.equal(d.asked(20), false);
    d.imaged();
    assert.equal(d.asked(30), false);
  });

  void it('keeps the replica while reads come within the idle time; drops it after a gap; asks again at the next read', () => {
    const d = new ReplicaDemand(1000);
    d.asked(0);
    d.imaged();
    const steps: [string, number, boolean][] = [
      ['idle', 500, false],
      ['asked', 900, false],
      ['idle', 1800, false], // 900 ms since the last read
      ['idle', 1900, true], // 1000 ms: dropped
      ['idle', 5000, false], // nothing held: nothing to drop
      ['asked', 6000, true], // asks again
      ['idle', 9000, false], // asked, but no image yet: nothing held
    ];
    for (const [what, now, expected] of steps) assert.equal(what === 'idle' ? d.idle(now) : d.asked(now), expected, `${what} at ${now}`);
  });

  void it('an image nobody asked for is held (and dropped when unused); a lost replica is asked for again at once', () => {
    const d = new ReplicaDemand(1000);
    d.imaged();
    assert.equal(d.idle(10), true, 'never asked for: dropped at the first check');
    d.asked(100);
    d.imaged();
    d.lost();
    assert.equal(d.asked(200), true);
    assert.equal(d.idle(5000), false, 'nothing held after a loss');
  });

  void it('is kept while a watch stream served from it is open, then for the idle time after the last one ends', () => {
    const d = new ReplicaDemand(1000);
    assert.equal(d.asked(0), true, 'a Watch asks like a serializable read');
    d.imaged();
    d.pin();
    d.pin();
    assert.equal(d.idle(5000), false, 'two streams open');
    d.unpin(6000);
    assert.equal(d.idle(9000), false, 'one still open');
    d.unpin(10_000);
    assert.equal(d.idle(10_999), false, 'the idle time counts from the last end');
    assert.equal(d.idle(11_000), true);
  });

  void it('defaults to a long idle time', () => {
    const d = new ReplicaDemand();
    d.asked(0);
    d.imaged();
    assert.equal(d.idle(DEFAULT_REPLICA_IDLE_MS - 1), false);
    assert.equal(d.idle(DEFAULT_REPLICA_IDLE_MS), true);
  });
});
