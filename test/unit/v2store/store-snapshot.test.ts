/** Persistence (toJSON/fromJSON/restore), the request codec, apply's dispatch and sizeBytes. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { V2Store } from '../../../server/v2store/store.js';
import { decodeV2Request, encodeV2Request } from '../../../server/v2store/request-codec.js';
import type { V2Event, V2Request } from '../../../server/v2store/types.js';
import { errorOf, T0, unwrap } from './helpers.js';

function populated(): V2Store {
  const s = new V2Store();
  unwrap(s.set('/0/version', { value: '3.4.0' }, T0));
  unwrap(s.set('/1/dir/a', { value: '1' }, T0));
  unwrap(s.set('/1/dir/_h', { value: 'hidden' }, T0));
  unwrap(s.set('/1/dir/sub/c', { value: '' }, T0));
  unwrap(s.set('/1/t', { value: 'ttl', expiration: T0 + 2000 }, T0));
  unwrap(s.set('/1/td', { dir: true, expiration: T0 + 1000 }, T0));
  unwrap(s.compareAndSwap('/1/dir/a', { prevValue: '1', value: '2' }, T0));
  unwrap(s.set('/1/t', { refresh: true, expiration: T0 + 3000 }, T0));
  unwrap(s.create('/1/q', { value: 'j', unique: true }, T0));
  unwrap(s.delete('/1/dir/_h', {}, T0));
  return s;
}

void describe('toJSON / fromJSON', () => {
  void it('round-trips through JSON text: same data, index, TTLs and history', () => {
    const a = populated();
    const text = JSON.stringify(a.toJSON());
    const b = V2Store.fromJSON(JSON.parse(text));
    assert.deepEqual(b.toJSON(), a.toJSON());
    assert.equal(b.index(), a.index());
    assert.deepEqual(unwrap(b.get('/', { recursive: true, sorted: true }, T0)), unwrap(a.get('/', { recursive: true, sorted: true }, T0)));
    assert.equal(b.nextExpiration(), T0 + 1000);
    assert.deepEqual(b.deleteExpired(T0 + 5000), a.deleteExpired(T0 + 5000));
    const watchA = unwrap(a.watch('/1/dir/a', { sinceIndex: 1n }, () => undefined)).event;
    const watchB = unwrap(b.watch('/1/dir/a', { sinceIndex: 1n }, () => undefined)).event;
    assert.deepEqual(watchB, watchA);
    assert.deepEqual(unwrap(b.set('/1/next', { value: 'n' }, T0)), unwrap(a.set('/1/next', { value: 'n' }, T0)));
  });

  void it('documents the format (FORMAT.md example)', () => {
    const s = new V2Store();
    unwrap(s.set('/1/a/b', { value: 'x' }, T0));
    assert.deepEqual(s.toJSON(), {
      format: 'kvstore-v2store',
      version: 1,
      index: '1',
      nodes: [
        { path: '/0', dir: true, createdIndex: '0', modifiedIndex: '0' },
        { path: '/1', dir: true, createdIndex: '0', modifiedIndex: '0' },
        { path: '/1/a', dir: true, createdIndex: '1', modifiedIndex: '1' },
        { path: '/1/a/b', value: 'x', createdIndex: '1', modifiedIndex: '1' },
      ],
      history: [{ action: 'set', node: { key: '/1/a/b', value: 'x', modifiedIndex: '1', createdIndex: '1' }, etcdIndex: '1' }],
    });
  });

  void it('restore keeps registered watchers, which then see later writes', () => {
    const target = new V2Store();
    const seen: V2Event[] = [];
    unwrap(target.watch('/1/dir', { recursive: true, sinceIndex: 100n }, (e) => seen.push(e)));
    target.restore(populated().toJSON());
    assert.equal(target.index(), 10n);
    assert.equal(errorOf(target.set('/1', { value: 'x' }, T0)).errorCode, 107, 'namespaces stay read-only');
    for (let i = 0; i < 90; i++) unwrap(target.set('/1/pad', { value: String(i) }, T0));
    const e = unwrap(target.set('/1/dir/z', { value: 'z' }, T0));
    assert.deepEqual(seen, [e]);
  });

  void it('refuses malformed snapshots without changing the store', () => {
    const s = populated();
    const before = s.toJSON();
    const good = s.toJSON();
    const bad: unknown[] = [
      null,
      { ...good, format: 'other' },
      { ...good, index: 7 },
      { ...good, nodes: [{ path: '/1/orphan/x', value: 'v', createdIndex: '1', modifiedIndex: '1' }] },
      { ...good, nodes: [...good.nodes, good.nodes[1]] },
      { ...good, history: [{ action: 'explode', node: { key: '/', modifiedIndex: '1', createdIndex: '1' }, etcdIndex: '1' }] },
    ];
    for (const b of bad) {
      assert.throws(() => s.restore(b), /v2 snapshot/);
      assert.deepEqual(s.toJSON(), before);
    }
  });
});

void describe('request codec', () => {
  const requests: V2Request[] = [
    { method: 'PUT', path: '/1/foo', value: 'bar' },
    { method: 'PUT', path: '/1/foo', value: '', dir: false, prevValue: 'x', prevIndex: 18446744073709551615n, prevExist: true, recursive: false, refresh: true, expiration: T0 + 1 },
    { method: 'POST', path: '/1/q', value: 'j', dir: true },
    { method: 'DELETE', path: '/1/d', dir: true, recursive: true },
    { method: 'GET', path: '/1', recursive: true, sorted: true },
  ];
  for (const r of requests) {
    void it(`${r.method} ${r.path} round-trips`, () => {
      assert.deepEqual(decodeV2Request(encodeV2Request(r)), r);
    });
  }

  void it('refuses malformed entries', () => {
    const enc = (o: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(o));
    for (const bad of [{ method: 'PATCH', path: '/1' }, { method: 'PUT' }, { method: 'PUT', path: '/1', prevIndex: 3 }, { method: 'PUT', path: '/1', dir: 'yes' }]) {
      assert.throws(() => decodeV2Request(enc(bad)), /v2 request/);
    }
  });
});

void describe('apply', () => {
  const cases: [string, V2Request, string | number][] = [
    ['PUT → set', { method: 'PUT', path: '/1/k', value: 'v' }, 'set'],
    ['PUT prevExist=false → create', { method: 'PUT', path: '/1/new', value: 'v', prevExist: false }, 'create'],
    ['PUT prevExist=false on an existing key → 105', { method: 'PUT', path: '/1/k', value: 'v', prevExist: false }, 105],
    ['PUT prevExist=true → update', { method: 'PUT', path: '/1/k', value: 'v', prevExist: true }, 'update'],
    ['PUT prevExist=true + prevIndex → compareAndSwap', { method: 'PUT', path: '/1/k', value: 'v', prevExist: true, prevIndex: 1n }, 'compareAndSwap'],
    ['PUT prevValue → compareAndSwap', { method: 'PUT', path: '/1/k', value: 'v', prevValue: 'old' }, 'compareAndSwap'],
    ['PUT prevIndex 0 and prevValue "" → set', { method: 'PUT', path: '/1/k', value: 'v', prevIndex: 0n, prevValue: '' }, 'set'],
    ['POST → create in order', { method: 'POST', path: '/1/q', value: 'v' }, 'create'],
    ['DELETE → delete', { method: 'DELETE', path: '/1/k' }, 'delete'],
    ['DELETE prevValue → compareAndDelete', { method: 'DELETE', path: '/1/k', prevValue: 'old' }, 'compareAndDelete'],
    ['DELETE dir without recursive on a non-empty dir → 108', { method: 'DELETE', path: '/1/d', dir: true }, 108],
    ['GET → get', { method: 'GET', path: '/1/k' }, 'get'],
  ];
  for (const [name, req, expected] of cases) {
    void it(name, () => {
      const s = new V2Store();
      unwrap(s.set('/1/k', { value: 'old' }, T0));
      unwrap(s.set('/1/d/x', { value: 'x' }, T0));
      const r = s.apply(req, T0);
      if (typeof expected === 'string') assert.equal(unwrap(r).action, expected);
      else assert.equal(errorOf(r).errorCode, expected);
    });
  }

  void it('POST names the key after the new index', () => {
    const s = new V2Store();
    assert.equal(unwrap(s.apply({ method: 'POST', path: '/1/q', value: 'j' }, T0)).node.key, '/1/q/00000000000000000001');
  });
});

void describe('sizeBytes', () => {
  void it('grows with keys and values and shrinks when they go', () => {
    const s = new V2Store();
    const empty = s.sizeBytes();
    unwrap(s.set('/1/k', { value: 'x'.repeat(1000) }, T0));
    const withValue = s.sizeBytes();
    assert.ok(withValue >= empty + 1000, `${withValue} vs ${empty}`);
    unwrap(s.set('/1/é', { value: '€' }, T0));
    assert.ok(s.sizeBytes() > withValue);
    unwrap(s.delete('/1/k', {}, T0));
    unwrap(s.delete('/1/é', {}, T0));
    assert.equal(s.sizeBytes(), empty);
  });
});
