/** watch / wait / waitIndex: waiting watchers, answers from the history, hidden keys, streams, and the 1000-event history. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { V2Store } from '../../../server/v2store/store.js';
import type { V2Event } from '../../../server/v2store/types.js';
import { errorOf, T0, unwrap } from './helpers.js';

function collector(): { seen: V2Event[]; on: (e: V2Event) => void } {
  const seen: V2Event[] = [];
  return { seen, on: (e) => seen.push(e) };
}

void describe('watch: waiting for the next change', () => {
  void it('a one-shot watcher gets the next event on its key, then nothing', () => {
    const s = new V2Store();
    const c = collector();
    const w = unwrap(s.watch('/1/w1', {}, c.on));
    assert.equal(w.startIndex, 0n);
    assert.equal(w.event, undefined);
    assert.equal(s.watcherCount(), 1);
    unwrap(s.set('/1/other', { value: 'x' }, T0));
    const e = unwrap(s.set('/1/w1', { value: 'hello' }, T0));
    unwrap(s.set('/1/w1', { value: 'again' }, T0));
    assert.deepEqual(c.seen, [e]);
    assert.equal(s.watcherCount(), 0);
  });

  void it('recursive watchers see changes below; plain ones do not', () => {
    const s = new V2Store();
    const rec = collector();
    const plain = collector();
    unwrap(s.watch('/1/wd', { recursive: true }, rec.on));
    unwrap(s.watch('/1/wd', {}, plain.on));
    const e = unwrap(s.set('/1/wd/x', { value: 'hello' }, T0));
    assert.deepEqual(rec.seen, [e]);
    assert.deepEqual(plain.seen, []);
  });

  void it('hidden keys below the watched path are skipped, but a watcher on the hidden key itself fires', () => {
    const s = new V2Store();
    const rec = collector();
    const direct = collector();
    unwrap(s.watch('/1/wd', { recursive: true }, rec.on));
    unwrap(s.watch('/1/wd/_x', {}, direct.on));
    const hidden = unwrap(s.set('/1/wd/_x', { value: 'h' }, T0));
    unwrap(s.set('/1/wd/_d/y', { value: 'h' }, T0));
    const visible = unwrap(s.set('/1/wd/y', { value: 'h' }, T0));
    assert.deepEqual(rec.seen, [visible]);
    assert.deepEqual(direct.seen, [hidden]);
  });

  void it('deleting a directory wakes watchers of the keys inside it', () => {
    const s = new V2Store();
    unwrap(s.set('/1/dir/sub/c', { value: '4' }, T0));
    const c = collector();
    unwrap(s.watch('/1/dir/sub/c', {}, c.on));
    const e = unwrap(s.delete('/1/dir', { recursive: true }, T0));
    assert.deepEqual(c.seen, [e]);
  });

  void it('a stream watcher keeps going (and, like etcd, sees the delete of its own key twice) until cancelled', () => {
    const s = new V2Store();
    const c = collector();
    const w = unwrap(s.watch('/1/s', { stream: true }, c.on));
    const a = unwrap(s.set('/1/s', { value: 'a' }, T0));
    const b = unwrap(s.set('/1/s', { value: 'b' }, T0));
    const d = unwrap(s.delete('/1/s', {}, T0));
    assert.deepEqual(c.seen, [a, b, d, d]);
    w.cancel();
    w.cancel();
    unwrap(s.set('/1/s', { value: 'c' }, T0));
    assert.equal(c.seen.length, 4);
    assert.equal(s.watcherCount(), 0);
  });

  void it('a cancelled one-shot watcher gets nothing', () => {
    const s = new V2Store();
    const c = collector();
    unwrap(s.watch('/1/k', {}, c.on)).cancel();
    unwrap(s.set('/1/k', { value: 'v' }, T0));
    assert.deepEqual(c.seen, []);
  });

  void it('a future sinceIndex waits for that index', () => {
    const s = new V2Store();
    const c = collector();
    unwrap(s.watch('/1/k', { sinceIndex: 3n }, c.on));
    unwrap(s.set('/1/k', { value: '1' }, T0));
    unwrap(s.set('/1/k', { value: '2' }, T0));
    const third = unwrap(s.set('/1/k', { value: '3' }, T0));
    assert.deepEqual(c.seen, [third]);
  });

  void it('refresh events wake nobody', () => {
    const s = new V2Store();
    unwrap(s.set('/1/t', { value: 'v', expiration: T0 + 1000 }, T0));
    const c = collector();
    unwrap(s.watch('/1/t', {}, c.on));
    unwrap(s.set('/1/t', { refresh: true, expiration: T0 + 5000 }, T0));
    assert.deepEqual(c.seen, []);
    assert.equal(s.watcherCount(), 1);
  });
});

void describe('watch: answers from the history (waitIndex)', () => {
  void it('returns the first matching event at or after sinceIndex, with the current index as etcdIndex', () => {
    const s = new V2Store();
    const first = unwrap(s.set('/1/foo', { value: 'bar' }, T0)); // 1
    unwrap(s.set('/1/other', { value: 'x' }, T0)); // 2
    unwrap(s.set('/1/foo', { value: 'baz' }, T0)); // 3
    const c = collector();
    const w = unwrap(s.watch('/1/foo', { sinceIndex: 1n }, c.on));
    assert.equal(w.startIndex, 3n);
    assert.deepEqual(w.event, { ...first, etcdIndex: 3n });
    assert.equal(s.watcherCount(), 0, 'nothing registered');
    assert.equal(unwrap(s.watch('/1/foo', { sinceIndex: 2n }, c.on)).event?.node.value, 'baz');
    assert.deepEqual(c.seen, []);
  });

  void it('recursive scans match keys below; a deleted directory matches keys inside it', () => {
    const s = new V2Store();
    const child = unwrap(s.set('/1/dir/sub/c', { value: '4' }, T0)); // 1
    const del = unwrap(s.delete('/1/dir', { recursive: true }, T0)); // 2
    assert.deepEqual(unwrap(s.watch('/1', { recursive: true, sinceIndex: 1n }, () => undefined)).event, { ...child, etcdIndex: 2n });
    assert.deepEqual(unwrap(s.watch('/1/dir/sub/c', { sinceIndex: 2n }, () => undefined)).event, { ...del, etcdIndex: 2n });
    assert.deepEqual(unwrap(s.watch('/1/dir/sub', { recursive: true, sinceIndex: 2n }, () => undefined)).event, { ...del, etcdIndex: 2n });
  });

  void it('skips refresh events in the history', () => {
    const s = new V2Store();
    unwrap(s.set('/1/t', { value: 'v' }, T0)); // 1
    unwrap(s.set('/1/t', { refresh: true, expiration: T0 + 5000 }, T0)); // 2
    const w = unwrap(s.watch('/1/t', { sinceIndex: 2n }, () => undefined));
    assert.equal(w.event, undefined);
    w.cancel();
  });

  void it('keeps the last 1000 events; older indices are 401', () => {
    const s = new V2Store();
    for (let i = 1; i <= 1003; i++) unwrap(s.set('/1/bulk', { value: String(i) }, T0));
    assert.deepEqual(errorOf(s.watch('/1/bulk', { sinceIndex: 1n }, () => undefined)), {
      errorCode: 401,
      message: 'The event in requested index is outdated and cleared',
      cause: 'the requested history has been cleared [4/1]',
      index: 1003n,
    });
    assert.equal(errorOf(s.watch('/1/bulk', { sinceIndex: 3n }, () => undefined)).errorCode, 401);
    const oldest = unwrap(s.watch('/1/bulk', { sinceIndex: 4n }, () => undefined)).event;
    assert.deepEqual(oldest?.node, { key: '/1/bulk', value: '4', modifiedIndex: 4n, createdIndex: 4n });
    assert.deepEqual(oldest?.prevNode?.value, '3');
  });

  void it('a history capacity can be chosen', () => {
    const s = new V2Store({ historyCapacity: 2 });
    for (let i = 1; i <= 3; i++) unwrap(s.set('/1/k', { value: String(i) }, T0));
    assert.equal(errorOf(s.watch('/1/k', { sinceIndex: 1n }, () => undefined)).cause, 'the requested history has been cleared [2/1]');
  });
});
