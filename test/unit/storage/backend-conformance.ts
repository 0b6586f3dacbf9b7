/**
 * The Backend conformance suite: one set of claims from server/storage/backend.ts, run
 * against every implementation (memory-backend.test.ts, level-backend.test.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Bucket, type Backend, type IterateOptions, type ReadView } from '../../../server/storage/backend.js';

/** Creates a fresh, empty backend; `dispose` closes it and frees its resources. */
export type BackendFactory = () => Promise<{ readonly backend: Backend; readonly dispose: () => Promise<void> }>;

const b = (s: string | number[]): Buffer => (typeof s === 'string' ? Buffer.from(s) : Buffer.from(s));

async function all(view: ReadView, bucket: Bucket, options?: IterateOptions): Promise<string[]> {
  const out: string[] = [];
  for await (const [k, v] of view.iterate(bucket, options)) out.push(`${k.toString('hex')}=${v.toString()}`);
  return out;
}

async function keysOf(view: ReadView, bucket: Bucket, options?: IterateOptions): Promise<string[]> {
  const out: string[] = [];
  for await (const [k] of view.iterate(bucket, options)) out.push(k.toString());
  return out;
}

/** `view.batches` flattened to the form `all` prints (keys cut at keyStart). */
async function allBatched(view: ReadView, bucket: Bucket, options?: IterateOptions): Promise<string[]> {
  const out: string[] = [];
  for await (const { entries, keyStart } of view.batches(bucket, options)) {
    assert.ok(entries.length > 0);
    for (const [k, v] of entries) out.push(`${k.subarray(keyStart).toString('hex')}=${(v ?? Buffer.alloc(0)).toString()}`);
  }
  return out;
}

async function withBackend(factory: BackendFactory, fn: (backend: Backend) => Promise<void>): Promise<void> {
  const { backend, dispose } = await factory();
  try {
    await fn(backend);
  } finally {
    await dispose();
  }
}

export function runBackendConformance(name: string, factory: BackendFactory): void {
  void describe(`Backend conformance: ${name}`, () => {
    void it('put, get, overwrite and delete', () =>
      withBackend(factory, async (be) => {
        assert.equal(await be.get(Bucket.Key, b('a')), undefined);
        await be.write([{ type: 'put', bucket: Bucket.Key, key: b('a'), value: b('1') }]);
        assert.deepEqual(await be.get(Bucket.Key, b('a')), b('1'));
        await be.write([{ type: 'put', bucket: Bucket.Key, key: b('a'), value: b('2') }]);
        assert.deepEqual(await be.get(Bucket.Key, b('a')), b('2'));
        await be.write([{ type: 'del', bucket: Bucket.Key, key: b('a') }]);
        assert.equal(await be.get(Bucket.Key, b('a')), undefined);
        await be.write([{ type: 'del', bucket: Bucket.Key, key: b('missing') }]);
      }));

    void it('empty values are stored and distinct from absent', () =>
      withBackend(factory, async (be) => {
        await be.write([{ type: 'put', bucket: Bucket.Meta, key: b('e'), value: Buffer.alloc(0) }]);
        const v = await be.get(Bucket.Meta, b('e'));
        assert.ok(v !== undefined);
        assert.equal(v.length, 0);
      }));

    void it('buckets are disjoint', () =>
      withBackend(factory, async (be) => {
        const ops = Object.values(Bucket).map((bucket) => ({ type: 'put' as const, bucket, key: b('k'), value: b(bucket) }));
        await be.write(ops);
        for (const bucket of Object.values(Bucket)) {
          assert.deepEqual(await be.get(bucket, b('k')), b(bucket));
          assert.deepEqual(await all(be, bucket), [`${b('k').toString('hex')}=${bucket}`]);
        }
        await be.write([{ type: 'del', bucket: Bucket.Lease, key: b('k') }]);
        assert.equal(await be.get(Bucket.Lease, b('k')), undefined);
        assert.deepEqual(await be.get(Bucket.Alarm, b('k')), b('alarm'));
      }));

    void it('keys order by unsigned bytes, shorter prefix first', () =>
      withBackend(factory, async (be) => {
        const keys = [[0xff], [0x80], [0x7f], [0x00], [0x00, 0x00], [0x01], [0x7f, 0xff], [0xff, 0x00]];
        await be.write(keys.map((k) => ({ type: 'put' as const, bucket: Bucket.Key, key: b(k), value: b('v') })));
        const got: string[] = [];
        for await (const [k] of be.iterate(Bucket.Key)) got.push(k.toString('hex'));
        assert.deepEqual(got, ['00', '0000', '01', '7f', '7fff', '80', 'ff', 'ff00']);
      }));

    void it('iterate honours gte, lt, reverse and limit', () =>
      withBackend(factory, async (be) => {
        await be.write(['a', 'b', 'c', 'd', 'e'].map((k) => ({ type: 'put' as const, bucket: Bucket.Key, key: b(k), value: b(k) })));
        assert.deepEqual(await keysOf(be, Bucket.Key), ['a', 'b', 'c', 'd', 'e']);
        assert.deepEqual(await keysOf(be, Bucket.Key, { gte: b('b'), lt: b('d') }), ['b', 'c']);
        assert.deepEqual(await keysOf(be, Bucket.Key, { gte: b('bb') }), ['c', 'd', 'e']);
        assert.deepEqual(await keysOf(be, Bucket.Key, { lt: b('c') }), ['a', 'b']);
        assert.deepEqual(await keysOf(be, Bucket.Key, { reverse: true }), ['e', 'd', 'c', 'b', 'a']);
        assert.deepEqual(await keysOf(be, Bucket.Key, { gte: b('b'), lt: b('d'), reverse: true }), ['c', 'b']);
        assert.deepEqual(await keysOf(be, Bucket.Key, { lt: b('cc'), reverse: true, limit: 2 }), ['c', 'b']);
        assert.deepEqual(await keysOf(be, Bucket.Key, { limit: 3 }), ['a', 'b', 'c']);
        assert.deepEqual(await keysOf(be, Bucket.Key, { limit: 0 }), []);
        assert.deepEqual(await keysOf(be, Bucket.Key, { gte: b('x') }), []);
        assert.deepEqual(await keysOf(be, Bucket.Meta), []);
        assert.deepEqual(await keysOf(be, Bucket.Key, { gte: b('b'), keysOnly: true }), ['b', 'c', 'd', 'e']);
      }));

    void it('getSync and getMany read what get reads', () =>
      withBackend(factory, async (be) => {
        await be.write(['a', 'b', 'c'].map((k) => ({ type: 'put' as const, bucket: Bucket.Key, key: b(k), value: b(`v${k}`) })));
        assert.equal(be.getSync(Bucket.Key, b('b'))?.toString(), 'vb');
        assert.equal(be.getSync(Bucket.Key, b('x')), undefined);
        assert.equal(be.getSync(Bucket.Meta, b('a')), undefined);
        const many = await be.getMany(Bucket.Key, [b('c'), b('x'), b('a')]);
        assert.deepEqual(many.map((v) => v?.toString()), ['vc', undefined, 'va']);
        assert.deepEqual(await be.getMany(Bucket.Key, []), []);
      }));

    void it('iterate sees the view of the moment it was called', () =>
      withBackend(factory, async (be) => {
        await be.write([{ type: 'put', bucket: Bucket.Key, key: b('a'), value: b('1') }, { type: 'put', bucket: Bucket.Key, key: b('b'), value: b('1') }]);
        const view = be.iterate(Bucket.Key);
        await be.write([
          { type: 'put', bucket: Bucket.Key, key: b('a'), value: b('2') },
          { type: 'del', bucket: Bucket.Key, key: b('b') },
          { type: 'put', bucket: Bucket.Key, key: b('c'), value: b('2') },
        ]);
        const got: string[] = [];
        for await (const [k, v] of view) got.push(`${k.toString()}=${v.toString()}`);
        assert.deepEqual(got, ['a=1', 'b=1']);
      }));

    void it('a batch is applied in order and all at once', () =>
      withBackend(factory, async (be) => {
        await be.write([
          { type: 'put', bucket: Bucket.Key, key: b('x'), value: b('1') },
          { type: 'del', bucket: Bucket.Key, key: b('x') },
          { type: 'put', bucket: Bucket.Key, key: b('y'), value: b('1') },
          { type: 'put', bucket: Bucket.Key, key: b('y'), value: b('2') },
          { type: 'put', bucket: Bucket.Meta, key: b('m'), value: b('3') },
        ], { sync: true });
        assert.equal(await be.get(Bucket.Key, b('x')), undefined);
        assert.deepEqual(await be.get(Bucket.Key, b('y')), b('2'));
        assert.deepEqual(await be.get(Bucket.Meta, b('m')), b('3'));
        await be.write([]);
      }));

    void it('writes copy nothing the caller can change afterwards', () =>
      withBackend(factory, async (be) => {
        const key = b('k');
        const value = b('v');
        await be.write([{ type: 'put', bucket: Bucket.Key, key, value }]);
        key[0] = 0x7a;
        value[0] = 0x7a;
        assert.deepEqual(await be.get(Bucket.Key, b('k')), b('v'));
      }));

    void it('batches give what iterate gives, a batch at a time, from the view of the call', () =>
      withBackend(factory, async (be) => {
        const ops = Array.from({ length: 2500 }, (_, i) => ({ type: 'put' as const, bucket: Bucket.Key, key: b(`k${String(i).padStart(5, '0')}`), value: b(`v${i}`) }));
        await be.write([...ops, { type: 'put', bucket: Bucket.Meta, key: b('m'), value: b('x') }]);
        const batched = be.batches(Bucket.Key);
        await be.write([{ type: 'put', bucket: Bucket.Key, key: b('k99999'), value: b('late') }]);
        const expected = (await all(be, Bucket.Key)).filter((e) => !e.endsWith('=late'));
        const got: string[] = [];
        for await (const { entries, keyStart } of batched) for (const [k, v] of entries) got.push(`${k.subarray(keyStart).toString('hex')}=${String(v)}`);
        assert.deepEqual(got, expected);
        assert.deepEqual(await allBatched(be, Bucket.Key, { gte: b('k00010'), lt: b('k00013') }), await all(be, Bucket.Key, { gte: b('k00010'), lt: b('k00013') }));
        assert.deepEqual(await allBatched(be, Bucket.Meta), [`${b('m').toString('hex')}=x`]);
        assert.deepEqual(await allBatched(be, Bucket.Lease), []);
        const snap = await be.snapshot();
        await be.write([{ type: 'del', bucket: Bucket.Meta, key: b('m') }]);
        assert.deepEqual(await allBatched(snap, Bucket.Meta), [`${b('m').toString('hex')}=x`]);
        await snap.close();
      }));

    void it('snapshot pins a consistent view until closed', () =>
      withBackend(factory, async (be) => {
        await be.write([{ type: 'put', bucket: Bucket.Key, key: b('a'), value: b('1') }]);
        const snap = await be.snapshot();
        await be.write([{ type: 'put', bucket: Bucket.Key, key: b('a'), value: b('2') }, { type: 'put', bucket: Bucket.Meta, key: b('m'), value: b('x') }]);
        assert.deepEqual(await snap.get(Bucket.Key, b('a')), b('1'));
        assert.equal(await snap.get(Bucket.Meta, b('m')), undefined);
        assert.deepEqual(await all(snap, Bucket.Key), [`${b('a').toString('hex')}=1`]);
        assert.deepEqual(await be.get(Bucket.Key, b('a')), b('2'));
        await snap.close();
        await assert.rejects(async () => snap.get(Bucket.Key, b('a')));
      }));

    void it('size grows with data; defragment keeps data', () =>
      withBackend(factory, async (be) => {
        const before = await be.size();
        assert.ok(before >= 0);
        const value = Buffer.alloc(4096, 7);
        const ops = Array.from({ length: 64 }, (_, i) => ({ type: 'put' as const, bucket: Bucket.Key, key: b(`k${i}`), value }));
        await be.write(ops, { sync: true });
        assert.ok((await be.size()) > before);
        await be.defragment();
        assert.deepEqual(await be.get(Bucket.Key, b('k63')), value);
        assert.equal((await keysOf(be, Bucket.Key)).length, 64);
      }));

    void it('breaking out of an iteration early is allowed', () =>
      withBackend(factory, async (be) => {
        await be.write(Array.from({ length: 600 }, (_, i) => ({ type: 'put' as const, bucket: Bucket.Key, key: b(String(i).padStart(4, '0')), value: b('v') })));
        let n = 0;
        for await (const entry of be.iterate(Bucket.Key)) {
          assert.ok(entry[0].length === 4);
          if (++n === 300) break;
        }
        assert.equal(n, 300);
        assert.equal((await keysOf(be, Bucket.Key)).length, 600);
      }));
  });
}
