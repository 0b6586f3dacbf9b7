/** V2Store writes, one table per operation: the events they produce and the errors they refuse with. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { V2Store } from '../../../server/v2store/store.js';
import type { V2Error, V2Result } from '../../../server/v2store/errors.js';
import type { V2Event } from '../../../server/v2store/types.js';
import { errorOf, T0, unwrap } from './helpers.js';

type Step = (s: V2Store) => V2Result<V2Event>;

interface Case {
  readonly name: string;
  readonly setup?: readonly Step[];
  readonly op: Step;
  readonly event?: V2Event;
  readonly error?: Omit<V2Error, 'message'> & { message?: string };
}

const set = (path: string, value: string): Step => (s) => s.set(path, { value }, T0);
const mkdir = (path: string): Step => (s) => s.set(path, { dir: true }, T0);

function run(cases: readonly Case[]): void {
  for (const c of cases) {
    void it(c.name, () => {
      const s = new V2Store();
      for (const step of c.setup ?? []) unwrap(step(s));
      const before = s.index();
      const r = c.op(s);
      if (c.event) {
        assert.deepEqual(unwrap(r), c.event);
        assert.equal(s.index(), before + 1n, 'a write moves the index by one');
      } else {
        const e = errorOf(r);
        assert.equal(e.errorCode, c.error?.errorCode);
        assert.equal(e.cause, c.error?.cause);
        assert.equal(e.index, c.error?.index);
        if (c.error?.message) assert.equal(e.message, c.error.message);
        assert.equal(s.index(), before, 'a failed write changes nothing');
      }
    });
  }
}

void describe('set', () => {
  run([
    {
      name: 'creates a file (no prevNode)',
      op: set('/1/foo', 'bar'),
      event: { action: 'set', node: { key: '/1/foo', value: 'bar', modifiedIndex: 1n, createdIndex: 1n }, etcdIndex: 1n },
    },
    {
      name: 'replaces a file: new createdIndex, prevNode is the old file',
      setup: [set('/1/foo', 'bar')],
      op: set('/1/foo', 'baz'),
      event: {
        action: 'set',
        node: { key: '/1/foo', value: 'baz', modifiedIndex: 2n, createdIndex: 2n },
        prevNode: { key: '/1/foo', value: 'bar', modifiedIndex: 1n, createdIndex: 1n },
        etcdIndex: 2n,
      },
    },
    {
      name: 'an empty value is a value',
      op: set('/1/e', ''),
      event: { action: 'set', node: { key: '/1/e', value: '', modifiedIndex: 1n, createdIndex: 1n }, etcdIndex: 1n },
    },
    {
      name: 'creates a directory with dir',
      op: mkdir('/1/d'),
      event: { action: 'set', node: { key: '/1/d', dir: true, modifiedIndex: 1n, createdIndex: 1n }, etcdIndex: 1n },
    },
    {
      name: 'replaces a file with a directory',
      setup: [set('/1/f', 'y')],
      op: mkdir('/1/f'),
      event: {
        action: 'set',
        node: { key: '/1/f', dir: true, modifiedIndex: 2n, createdIndex: 2n },
        prevNode: { key: '/1/f', value: 'y', modifiedIndex: 1n, createdIndex: 1n },
        etcdIndex: 2n,
      },
    },
    { name: 'never replaces a directory (102)', setup: [mkdir('/1/d')], op: set('/1/d', 'x'), error: { errorCode: 102, cause: '/1/d', index: 1n, message: 'Not a file' } },
    { name: 'a file on the way is 104', setup: [set('/1/f', 'x')], op: set('/1/f/g', 'y'), error: { errorCode: 104, cause: '/1/f', index: 1n, message: 'Not a directory' } },
    { name: '/ is read only (107, cause /)', op: set('/', 'x'), error: { errorCode: 107, cause: '/', index: 0n, message: 'Root is read only' } },
    { name: '/1 is read only', op: set('/1', 'x'), error: { errorCode: 107, cause: '/', index: 0n } },
    { name: '/0 is read only', op: set('/0/', 'x'), error: { errorCode: 107, cause: '/', index: 0n } },
    {
      name: 'cleans the path',
      op: set('1//a/./b/../c/', 'v'),
      event: { action: 'set', node: { key: '/1/a/c', value: 'v', modifiedIndex: 1n, createdIndex: 1n }, etcdIndex: 1n },
    },
    {
      name: 'refresh keeps the value and marks the event',
      setup: [set('/1/t', 'v')],
      op: (s) => s.set('/1/t', { refresh: true, value: 'ignored', expiration: T0 + 5000 }, T0),
      event: {
        action: 'set',
        node: { key: '/1/t', value: 'v', expiration: T0 + 5000, ttl: 5, modifiedIndex: 2n, createdIndex: 2n },
        prevNode: { key: '/1/t', value: 'v', modifiedIndex: 1n, createdIndex: 1n },
        etcdIndex: 2n,
        refresh: true,
      },
    },
    { name: 'refresh of a missing key is 100', op: (s) => s.set('/1/t', { refresh: true, expiration: T0 + 5000 }, T0), error: { errorCode: 100, cause: '/1/t', index: 0n } },
  ]);

  void it('creates missing parent directories with the new index', () => {
    const s = new V2Store();
    unwrap(s.set('/1/a/b/c', { value: 'x' }, T0));
    assert.deepEqual(unwrap(s.get('/1/a', {}, T0)).node, {
      key: '/1/a',
      dir: true,
      nodes: [{ key: '/1/a/b', dir: true, modifiedIndex: 1n, createdIndex: 1n }],
      modifiedIndex: 1n,
      createdIndex: 1n,
    });
  });
});

void describe('create', () => {
  run([
    {
      name: 'creates a missing key',
      op: (s) => s.create('/1/new1', { value: 'y' }, T0),
      event: { action: 'create', node: { key: '/1/new1', value: 'y', modifiedIndex: 1n, createdIndex: 1n }, etcdIndex: 1n },
    },
    { name: 'an existing key is 105', setup: [set('/1/foo', 'x')], op: (s) => s.create('/1/foo', { value: 'y' }, T0), error: { errorCode: 105, cause: '/1/foo', index: 1n, message: 'Key already exists' } },
    { name: 'an existing directory is 105', setup: [mkdir('/1/d')], op: (s) => s.create('/1/d', { dir: true }, T0), error: { errorCode: 105, cause: '/1/d', index: 1n } },
    {
      name: 'in order: the name is the new index on 20 digits',
      setup: [set('/1/x', '1'), set('/1/y', '2')],
      op: (s) => s.create('/1/queue', { value: 'j1', unique: true }, T0),
      event: { action: 'create', node: { key: '/1/queue/00000000000000000003', value: 'j1', modifiedIndex: 3n, createdIndex: 3n }, etcdIndex: 3n },
    },
    {
      name: 'in order under the key space root',
      op: (s) => s.create('/1', { dir: true, unique: true }, T0),
      event: { action: 'create', node: { key: '/1/00000000000000000001', dir: true, modifiedIndex: 1n, createdIndex: 1n }, etcdIndex: 1n },
    },
    { name: 'in order under a file is 104', setup: [set('/1/e', 'x')], op: (s) => s.create('/1/e', { value: '1', unique: true }, T0), error: { errorCode: 104, cause: '/1/e', index: 1n } },
  ]);
});

void describe('update', () => {
  run([
    {
      name: 'changes the value, keeps createdIndex',
      setup: [set('/1/foo', 'x'), set('/1/other', 'o')],
      op: (s) => s.update('/1/foo', { value: 'z' }, T0),
      event: {
        action: 'update',
        node: { key: '/1/foo', value: 'z', modifiedIndex: 3n, createdIndex: 1n },
        prevNode: { key: '/1/foo', value: 'x', modifiedIndex: 1n, createdIndex: 1n },
        etcdIndex: 3n,
      },
    },
    { name: 'a missing key is 100', op: (s) => s.update('/1/nope', { value: 'y' }, T0), error: { errorCode: 100, cause: '/1/nope', index: 0n, message: 'Key not found' } },
    { name: 'a value on a directory is 102', setup: [mkdir('/1/d')], op: (s) => s.update('/1/d', { value: 'v' }, T0), error: { errorCode: 102, cause: '/1/d', index: 1n } },
    { name: '/1 is read only', op: (s) => s.update('/1', {}, T0), error: { errorCode: 107, cause: '/', index: 0n } },
    {
      name: 'a directory takes a TTL',
      setup: [mkdir('/1/d')],
      op: (s) => s.update('/1/d', { expiration: T0 + 200_000 }, T0),
      event: {
        action: 'update',
        node: { key: '/1/d', dir: true, expiration: T0 + 200_000, ttl: 200, modifiedIndex: 2n, createdIndex: 1n },
        prevNode: { key: '/1/d', dir: true, modifiedIndex: 1n, createdIndex: 1n },
        etcdIndex: 2n,
      },
    },
  ]);

  void it("leaves a directory's own modifiedIndex unchanged (as etcd does)", () => {
    const s = new V2Store();
    unwrap(s.set('/1/d', { dir: true }, T0));
    unwrap(s.update('/1/d', { expiration: T0 + 1000 }, T0));
    assert.equal(unwrap(s.get('/1/d', {}, T0)).node.modifiedIndex, 1n);
  });
});

void describe('compareAndSwap', () => {
  const base = [set('/1/foo', 'bar'), set('/1/foo', 'baz')];
  run([
    {
      name: 'matching prevValue swaps',
      setup: base,
      op: (s) => s.compareAndSwap('/1/foo', { prevValue: 'baz', value: 'x' }, T0),
      event: {
        action: 'compareAndSwap',
        node: { key: '/1/foo', value: 'x', modifiedIndex: 3n, createdIndex: 2n },
        prevNode: { key: '/1/foo', value: 'baz', modifiedIndex: 2n, createdIndex: 2n },
        etcdIndex: 3n,
      },
    },
    {
      name: 'matching prevIndex swaps',
      setup: base,
      op: (s) => s.compareAndSwap('/1/foo', { prevIndex: 2n, value: 'x' }, T0),
      event: {
        action: 'compareAndSwap',
        node: { key: '/1/foo', value: 'x', modifiedIndex: 3n, createdIndex: 2n },
        prevNode: { key: '/1/foo', value: 'baz', modifiedIndex: 2n, createdIndex: 2n },
        etcdIndex: 3n,
      },
    },
    { name: 'value mismatch', setup: base, op: (s) => s.compareAndSwap('/1/foo', { prevValue: 'nope', value: 'x' }, T0), error: { errorCode: 101, cause: '[nope != baz]', index: 2n, message: 'Compare failed' } },
    { name: 'index mismatch', setup: base, op: (s) => s.compareAndSwap('/1/foo', { prevIndex: 1n, value: 'x' }, T0), error: { errorCode: 101, cause: '[1 != 2]', index: 2n } },
    { name: 'both mismatch', setup: base, op: (s) => s.compareAndSwap('/1/foo', { prevValue: 'nope', prevIndex: 1n, value: 'x' }, T0), error: { errorCode: 101, cause: '[nope != baz] [1 != 2]', index: 2n } },
    { name: 'one of two mismatching fails', setup: base, op: (s) => s.compareAndSwap('/1/foo', { prevValue: 'baz', prevIndex: 1n, value: 'x' }, T0), error: { errorCode: 101, cause: '[1 != 2]', index: 2n } },
    { name: 'a directory is 102', setup: [mkdir('/1/d')], op: (s) => s.compareAndSwap('/1/d', { prevValue: 'a', value: 'x' }, T0), error: { errorCode: 102, cause: '/1/d', index: 1n } },
    { name: 'a missing key is 100', op: (s) => s.compareAndSwap('/1/nope', { prevValue: 'a', value: 'x' }, T0), error: { errorCode: 100, cause: '/1/nope', index: 0n } },
    { name: 'a missing parent is 100 naming the parent', op: (s) => s.compareAndSwap('/1/a/b', { prevValue: 'a' }, T0), error: { errorCode: 100, cause: '/1/a', index: 0n } },
  ]);
});

void describe('delete', () => {
  const tree = [set('/1/dir/a', '1'), set('/1/dir/_h', '2'), mkdir('/1/empty')];
  run([
    {
      name: 'a file',
      setup: [set('/1/foo', 'z')],
      op: (s) => s.delete('/1/foo', {}, T0),
      event: { action: 'delete', node: { key: '/1/foo', modifiedIndex: 2n, createdIndex: 1n }, prevNode: { key: '/1/foo', value: 'z', modifiedIndex: 1n, createdIndex: 1n }, etcdIndex: 2n },
    },
    { name: 'a directory without dir is 102', setup: tree, op: (s) => s.delete('/1/empty', {}, T0), error: { errorCode: 102, cause: '/1/empty', index: 3n } },
    {
      name: 'an empty directory with dir',
      setup: tree,
      op: (s) => s.delete('/1/empty', { dir: true }, T0),
      event: { action: 'delete', node: { key: '/1/empty', dir: true, modifiedIndex: 4n, createdIndex: 3n }, prevNode: { key: '/1/empty', dir: true, modifiedIndex: 3n, createdIndex: 3n }, etcdIndex: 4n },
    },
    { name: 'a non-empty directory (even hidden children) needs recursive: 108', setup: [set('/1/d/_h', '1')], op: (s) => s.delete('/1/d', { dir: true }, T0), error: { errorCode: 108, cause: '/1/d', index: 1n, message: 'Directory not empty' } },
    {
      name: 'recursive implies dir',
      setup: tree,
      op: (s) => s.delete('/1/dir', { recursive: true }, T0),
      event: { action: 'delete', node: { key: '/1/dir', dir: true, modifiedIndex: 4n, createdIndex: 1n }, prevNode: { key: '/1/dir', dir: true, modifiedIndex: 1n, createdIndex: 1n }, etcdIndex: 4n },
    },
    { name: 'a missing key is 100', op: (s) => s.delete('/1/x', {}, T0), error: { errorCode: 100, cause: '/1/x', index: 0n } },
    { name: 'the key space root is read only', op: (s) => s.delete('/1', { recursive: true }, T0), error: { errorCode: 107, cause: '/', index: 0n } },
  ]);

  void it('removes everything below a directory', () => {
    const s = new V2Store();
    unwrap(s.set('/1/dir/sub/c', { value: '1' }, T0));
    unwrap(s.delete('/1/dir', { recursive: true }, T0));
    assert.equal(errorOf(s.get('/1/dir/sub/c', {}, T0)).cause, '/1/dir');
  });
});

void describe('compareAndDelete', () => {
  run([
    {
      name: 'matching prevValue deletes',
      setup: [set('/1/foo', 'z')],
      op: (s) => s.compareAndDelete('/1/foo', { prevValue: 'z' }, T0),
      event: { action: 'compareAndDelete', node: { key: '/1/foo', modifiedIndex: 2n, createdIndex: 1n }, prevNode: { key: '/1/foo', value: 'z', modifiedIndex: 1n, createdIndex: 1n }, etcdIndex: 2n },
    },
    { name: 'mismatch is 101', setup: [set('/1/foo', 'z')], op: (s) => s.compareAndDelete('/1/foo', { prevValue: 'no' }, T0), error: { errorCode: 101, cause: '[no != z]', index: 1n } },
    { name: 'a directory is 102', setup: [mkdir('/1/queue')], op: (s) => s.compareAndDelete('/1/queue', { prevIndex: 8n }, T0), error: { errorCode: 102, cause: '/1/queue', index: 1n } },
    { name: 'a missing key is 100', op: (s) => s.compareAndDelete('/1/x', { prevIndex: 1n }, T0), error: { errorCode: 100, cause: '/1/x', index: 0n } },
  ]);
});

void describe('get', () => {
  const s = new V2Store();
  for (const [k, v] of [['/1/dir/b', '2'], ['/1/dir/a', '1'], ['/1/dir/_h', '3'], ['/1/dir/sub/c', '4'], ['/1/foo', 'z']] as const) unwrap(s.set(k, { value: v }, T0));

  void it('lists direct children, hidden ones left out, sorted on request', () => {
    assert.deepEqual(unwrap(s.get('/1/dir', { sorted: true }, T0)), {
      action: 'get',
      node: {
        key: '/1/dir',
        dir: true,
        nodes: [
          { key: '/1/dir/a', value: '1', modifiedIndex: 2n, createdIndex: 2n },
          { key: '/1/dir/b', value: '2', modifiedIndex: 1n, createdIndex: 1n },
          { key: '/1/dir/sub', dir: true, modifiedIndex: 4n, createdIndex: 4n },
        ],
        modifiedIndex: 1n,
        createdIndex: 1n,
      },
      etcdIndex: 5n,
    });
  });

  void it('recursive lists the whole subtree', () => {
    const sub = unwrap(s.get('/1/dir', { sorted: true, recursive: true }, T0)).node.nodes?.[2];
    assert.deepEqual(sub, { key: '/1/dir/sub', dir: true, nodes: [{ key: '/1/dir/sub/c', value: '4', modifiedIndex: 4n, createdIndex: 4n }], modifiedIndex: 4n, createdIndex: 4n });
  });

  void it('without sorted keeps insertion order', () => {
    assert.deepEqual(
      unwrap(s.get('/1/dir', {}, T0)).node.nodes?.map((n) => n.key),
      ['/1/dir/b', '/1/dir/a', '/1/dir/sub'],
    );
  });

  void it('hidden nodes are readable by path', () => {
    assert.equal(unwrap(s.get('/1/dir/_h', {}, T0)).node.value, '3');
  });

  void it('an empty directory has no nodes; the key space root has index 0', () => {
    const fresh = new V2Store();
    assert.deepEqual(unwrap(fresh.get('/1', {}, T0)), { action: 'get', node: { key: '/1', dir: true, modifiedIndex: 0n, createdIndex: 0n }, etcdIndex: 0n });
  });

  void it('errors: 100 names the first missing path, 104 the file in the way', () => {
    assert.deepEqual(errorOf(s.get('/1/missing/sub', {}, T0)), { errorCode: 100, message: 'Key not found', cause: '/1/missing', index: 5n });
    assert.deepEqual(errorOf(s.get('/1/foo/sub', {}, T0)), { errorCode: 104, message: 'Not a directory', cause: '/1/foo', index: 5n });
  });

  void it('sorts like Go (UTF-8 byte order)', () => {
    const t = new V2Store();
    for (const k of ['\u{1F600}', '\uFF01', 'b', 'B']) unwrap(t.set(`/1/${k}`, { value: '' }, T0));
    assert.deepEqual(
      unwrap(t.get('/1', { sorted: true }, T0)).node.nodes?.map((n) => n.key),
      ['/1/B', '/1/b', '/1/\uFF01', '/1/\u{1F600}'],
    );
  });
});
