/**
 * Property tests: random sequences of transactions, flushes, compactions, reopens and reads
 * against the naive model (model.ts). Reads at random revisions (current, past, compacted,
 * future) with random range parameters must equal the model's; so must history and counts.
 * fast-check prints the seed and the shrunk sequence on failure.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Backend } from '../../../server/storage/backend.js';
import { createMemoryBackend, type MemoryBackend } from '../../../server/storage/memory-backend.js';
import { openMvccStore, type MvccStoreImpl, type StoreOptions } from '../../../server/mvcc/store.js';
import type { RangeParams } from '../../../server/mvcc/types.js';
import { levelFixture } from './helpers.js';
import { Model, type ModelOp } from './model.js';

const KEYS = [[0x00], [0x00, 0x01], [0x61], [0x61, 0x62], [0x62], [0x63], [0x7f], [0x80], [0xff], [0xff, 0x00]].map((k) => Buffer.from(k));
const key = fc.constantFrom(...KEYS);
const rangeEnd = fc.oneof(
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
  { weight: 3, arbitrary: fc.constant(Buffer.from([0])) },
  { weight: 2, arbitrary: key },
);
/** Range starts skewed to the low keys so that ranges usually hold several keys. */
const rangeKey = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...KEYS.slice(0, 3)) }, { weight: 1, arbitrary: key });

const writeOp: fc.Arbitrary<ModelOp> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ type: fc.constant('put' as const), key, value: fc.uint8Array({ maxLength: 3 }).map((u) => Buffer.from(u)), lease: fc.constantFrom(0n, 1n, 7n) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('del' as const), key, rangeEnd }) },
);

/** A revision chosen relative to the state when the step runs: 0 = current, negative = back from current. */
const relRev = fc.integer({ min: -12, max: 2 });

type Step =
  | { readonly type: 'txn'; readonly ops: ModelOp[]; readonly p: Omit<RangeParams, 'revision'> }
  | { readonly type: 'flush' }
  | { readonly type: 'compact'; readonly back: number }
  | { readonly type: 'reopen' }
  | { readonly type: 'range'; readonly back: number; readonly p: Omit<RangeParams, 'revision'> }
  | { readonly type: 'history'; readonly back: number; readonly key: Buffer; readonly rangeEnd: Buffer };

const revBound = fc.oneof({ weight: 8, arbitrary: fc.constant(0n) }, { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 20n }) });
const rangeParams = fc.record({
  key: rangeKey,
  rangeEnd,
  limit: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 4n })),
  sortOrder: fc.constantFrom(0, 0, 1, 2),
  sortTarget: fc.constantFrom(0, 0, 1, 2, 3, 4),
  keysOnly: fc.boolean(),
  countOnly: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  minModRevision: revBound,
  maxModRevision: revBound,
  minCreateRevision: revBound,
  maxCreateRevision: revBound,
});

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant('txn' as const), ops: fc.array(writeOp, { minLength: 0, maxLength: 4, size: 'max' }), p: rangeParams }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('flush' as const) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('compact' as const), back: relRev }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('reopen' as const) }) },
  { weight: 4, arbitrary: fc.record({ type: fc.constant('range' as const), back: relRev, p: rangeParams }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('history' as const), back: relRev, key: rangeKey, rangeEnd }) },
);

/** Where a test keeps its backend: `reopen` returns the backend a restarted member would find. */
interface Disk {
  readonly first: Backend;
  reopen(): Promise<Backend>;
}

async function runSteps(steps: readonly Step[], disk: Disk, options: StoreOptions): Promise<void> {
  const model = new Model();
  let store: MvccStoreImpl = await openMvccStore(disk.first, options);
  let index = 0n;
  let pending: Promise<void>[] = [];
  for (const st of steps) {
    const rev = (back: number): bigint => model.current + BigInt(back);
    switch (st.type) {
      case 'txn': {
        const txn = store.beginWrite();
        for (const op of st.ops) {
          if (op.type === 'put') txn.put(op.key, op.value, op.lease);
          else txn.deleteRange(op.key, op.rangeEnd);
        }
        const inTxn = await txn.range({ ...st.p, revision: 0n });
        const got = txn.end();
        const want = model.apply(st.ops);
        assert.deepEqual(inTxn, model.range({ ...st.p, revision: 0n }), 'a txn reads its own writes');
        assert.equal(got.revision, model.current);
        // A put may leave its previous value unread (unread-prev.ts): compared once read.
        assert.deepEqual(store.readPrev(got.events), want);
        break;
      }
      case 'flush':
        await store.flush(++index);
        break;
      case 'compact': {
        const r = rev(st.back);
        const got = store.compact(r);
        const want = model.compact(r);
        if (want === undefined) {
          assert.ok(got.ok);
          pending.push(got.value.done);
        } else {
          assert.deepEqual(got, { ok: false, error: want });
        }
        break;
      }
      case 'reopen': {
        // A clean restart: everything flushed and every compaction finished first.
        await store.flush(++index);
        await Promise.all(pending);
        pending = [];
        await store.settle();
        store = await openMvccStore(await disk.reopen(), options);
        assert.equal(store.currentRevision, model.current);
        assert.equal(store.compactRevision, model.compactRevision);
        assert.equal(store.consistentIndex, index);
        break;
      }
      case 'range': {
        const p: RangeParams = { ...st.p, revision: st.back === 0 ? 0n : rev(st.back) };
        assert.deepEqual(await store.range(p), model.range(p));
        break;
      }
      case 'history': {
        const from = rev(st.back);
        assert.deepEqual(await store.history(from, model.current, st.key, st.rangeEnd), model.history(from, model.current, st.key, st.rangeEnd));
        break;
      }
    }
    assert.equal(store.keyCount, model.liveCount());
  }
  await Promise.all(pending);
  await store.settle();
}

void describe('MVCC store against a naive model', () => {
  // history() through the key index (few keys: always here) and by scanning the revision window.
  for (const [name, options] of [['index history', {}], ['scan history', { historyIndexMaxKeys: 0 }]] as const) {
    void it(`memory backend, ${name}`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 60, size: 'max' }), async (steps) => {
          const backend: MemoryBackend = createMemoryBackend();
          let latest = backend;
          await runSteps(steps, { first: backend, reopen: () => Promise.resolve((latest = latest.copy())) }, options);
        }),
        { numRuns: 200 },
      );
    });
  }

  void it('level backend, both history paths', async () => {
    const fx = await levelFixture();
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40, size: 'max' }), async (steps) => {
          // One directory for the whole property: start each run from an empty database.
          const fresh = await fx.reopen();
          const ops = [];
          for (const bucket of ['key', 'meta'] as const) {
            for await (const [k] of fresh.iterate(bucket)) ops.push({ type: 'del' as const, bucket, key: k });
          }
          await fresh.write(ops);
          await runSteps(steps, { first: fresh, reopen: () => fx.reopen() }, { historyIndexMaxKeys: 3 });
        }),
        { numRuns: 25 },
      );
    } finally {
      await fx.dispose();
    }
  });
});
