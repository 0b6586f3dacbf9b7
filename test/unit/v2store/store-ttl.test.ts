/** TTLs on a virtual clock: rendering, expiry through deleteExpired, refresh, and the ttl → expiration helper. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { V2Store } from '../../../server/v2store/store.js';
import { expirationFromTtl } from '../../../server/v2store/expiration.js';
import { MIN_EXPIRATION_MS } from '../../../server/v2store/op-create.js';
import type { V2Event } from '../../../server/v2store/types.js';
import { errorOf, T0, unwrap } from './helpers.js';

void describe('TTL rendering', () => {
  const s = new V2Store();
  unwrap(s.set('/1/t', { value: 'v', expiration: T0 + 100_000 }, T0));

  const cases: [string, number, number | undefined][] = [
    ['full seconds left', T0, 100],
    ['a partial second rounds up', T0 + 500, 100],
    ['just before the next second', T0 + 1000, 99],
    ['the last millisecond', T0 + 99_999, 1],
    ['due: 0, left off', T0 + 100_000, undefined],
    ['late by less than a second: 0', T0 + 100_999, undefined],
    ['late by a second: -1', T0 + 101_000, -1],
  ];
  for (const [name, now, ttl] of cases) {
    void it(name, () => {
      const node = unwrap(s.get('/1/t', {}, now)).node;
      assert.equal(node.ttl, ttl);
      assert.equal(node.expiration, T0 + 100_000);
    });
  }
});

void describe('deleteExpired', () => {
  void it('removes nothing before the expiry and the key at it', () => {
    const s = new V2Store();
    unwrap(s.set('/1/exp', { value: 'v', expiration: T0 + 1000 }, T0));
    assert.deepEqual(s.deleteExpired(T0 + 999), []);
    assert.equal(s.nextExpiration(), T0 + 1000);
    const events = s.deleteExpired(T0 + 1000);
    assert.deepEqual(events, [
      {
        action: 'expire',
        node: { key: '/1/exp', modifiedIndex: 2n, createdIndex: 1n },
        prevNode: { key: '/1/exp', value: 'v', expiration: T0 + 1000, modifiedIndex: 1n, createdIndex: 1n },
        etcdIndex: 2n,
      },
    ]);
    assert.equal(s.index(), 2n);
    assert.equal(errorOf(s.get('/1/exp', {}, T0 + 1000)).errorCode, 100);
    assert.equal(s.nextExpiration(), undefined);
  });

  void it('expires in (expiry, path) order, one index each; a directory takes its children along', () => {
    const s = new V2Store();
    unwrap(s.set('/1/d', { dir: true, expiration: T0 + 2000 }, T0)); // 1
    unwrap(s.set('/1/d/child', { value: 'c', expiration: T0 + 5000 }, T0)); // 2
    unwrap(s.set('/1/b', { value: 'b', expiration: T0 + 1000 }, T0)); // 3
    unwrap(s.set('/1/a', { value: 'a', expiration: T0 + 1000 }, T0)); // 4
    const events = s.deleteExpired(T0 + 10_000);
    assert.deepEqual(
      events.map((e) => [e.node.key, e.node.modifiedIndex, e.node.dir ?? false]),
      [
        ['/1/a', 5n, false],
        ['/1/b', 6n, false],
        ['/1/d', 7n, true],
      ],
    );
    assert.equal(s.nextExpiration(), undefined, 'the child left the TTL heap with its directory');
    assert.deepEqual(unwrap(s.get('/1', {}, T0)).node.nodes, undefined);
  });

  void it('a key made permanent again does not expire', () => {
    const s = new V2Store();
    unwrap(s.set('/1/k', { value: 'v', expiration: T0 + 1000 }, T0));
    unwrap(s.update('/1/k', { value: 'w' }, T0));
    assert.deepEqual(s.deleteExpired(T0 + 5000), []);
    assert.equal(unwrap(s.get('/1/k', {}, T0 + 5000)).node.expiration, undefined);
  });

  void it('set without ttl replaces a TTL key with a permanent one', () => {
    const s = new V2Store();
    unwrap(s.set('/1/t1', { value: 'v', expiration: T0 + 1000 }, T0));
    const e = unwrap(s.set('/1/t1', { value: 'w' }, T0));
    assert.deepEqual(e.prevNode, { key: '/1/t1', value: 'v', expiration: T0 + 1000, ttl: 1, modifiedIndex: 1n, createdIndex: 1n });
    assert.deepEqual(s.deleteExpired(T0 + 5000), []);
  });

  void it('compareAndSwap and update move the expiry', () => {
    const s = new V2Store();
    unwrap(s.set('/1/k', { value: 'v', expiration: T0 + 1000 }, T0));
    unwrap(s.compareAndSwap('/1/k', { prevValue: 'v', value: 'w', expiration: T0 + 3000 }, T0));
    assert.deepEqual(s.deleteExpired(T0 + 2000), []);
    unwrap(s.update('/1/k', { value: 'x', expiration: T0 + 2500 }, T0));
    assert.equal(s.deleteExpired(T0 + 2500).length, 1);
  });

  void it('expirations before 2000-01-01 are permanent on create/set', () => {
    const s = new V2Store();
    unwrap(s.set('/1/old', { value: 'v', expiration: MIN_EXPIRATION_MS - 1 }, T0));
    unwrap(s.create('/1/old2', { value: 'v', expiration: 5 }, T0));
    assert.equal(unwrap(s.get('/1/old', {}, T0)).node.expiration, undefined);
    assert.deepEqual(s.deleteExpired(T0), []);
  });

  void it('expiry wakes watchers of the key and of the removed children', () => {
    const s = new V2Store();
    unwrap(s.set('/1/d/x', { value: '1' }, T0));
    unwrap(s.update('/1/d', { expiration: T0 + 1000 }, T0));
    const seen: V2Event[] = [];
    unwrap(s.watch('/1/d/x', {}, (e) => seen.push(e)));
    unwrap(s.watch('/1/d', {}, (e) => seen.push(e)));
    const [expired] = s.deleteExpired(T0 + 1000);
    assert.deepEqual(seen, [expired, expired]);
    assert.equal(s.watcherCount(), 0);
  });
});

void describe('refresh', () => {
  void it('update with refresh keeps the value, moves the expiry, and wakes no watcher', () => {
    const s = new V2Store();
    unwrap(s.set('/1/t', { value: 'v', expiration: T0 + 1000 }, T0));
    const seen: V2Event[] = [];
    unwrap(s.watch('/1/t', {}, (e) => seen.push(e)));
    const e = unwrap(s.update('/1/t', { refresh: true, expiration: T0 + 60_000 }, T0));
    assert.deepEqual(e, {
      action: 'update',
      node: { key: '/1/t', value: 'v', expiration: T0 + 60_000, ttl: 60, modifiedIndex: 2n, createdIndex: 1n },
      prevNode: { key: '/1/t', value: 'v', expiration: T0 + 1000, ttl: 1, modifiedIndex: 1n, createdIndex: 1n },
      etcdIndex: 2n,
      refresh: true,
    });
    assert.deepEqual(seen, []);
    assert.deepEqual(s.deleteExpired(T0 + 30_000), []);
  });

  void it('compareAndSwap with refresh keeps the value', () => {
    const s = new V2Store();
    unwrap(s.set('/1/t', { value: 'v' }, T0));
    const e = unwrap(s.compareAndSwap('/1/t', { prevValue: 'v', value: 'other', refresh: true, expiration: T0 + 1000 }, T0));
    assert.equal(e.node.value, 'v');
    assert.equal(e.refresh, true);
  });
});

void describe('expirationFromTtl', () => {
  void it('adds whole seconds to now', () => {
    assert.equal(expirationFromTtl(100n, T0), T0 + 100_000);
    assert.equal(expirationFromTtl(0n, T0), T0);
  });

  void it('wraps like int64 nanoseconds for huge TTLs (etcd then treats the past instant as permanent)', () => {
    const e = expirationFromTtl(99_999_999_999n, T0);
    assert.ok(e !== undefined && e < MIN_EXPIRATION_MS, `got ${e}`);
    assert.ok(expirationFromTtl(18_446_744_073_709_551_615n, T0) !== undefined);
  });
});
