/** The history checkers on hand-written histories, linearizable and not. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { History, type KvInput, type KvOutput } from '../world/history.js';
import { checkKvHistory, checkKvLinearizable, checkRevisions } from './kv-history.js';

type Step =
  | { readonly call: string; readonly key?: string; readonly input: KvInput }
  | { readonly ok: string; readonly output: KvOutput; readonly rev: bigint | undefined }
  | { readonly unknown: string }
  | { readonly failed: string };

/** Builds a history from call/answer steps in real-time order; ops are named by the caller. */
function history(steps: readonly Step[]): History {
  const h = new History();
  const ops = new Map<string, ReturnType<History['invoke']>>();
  for (const s of steps) {
    if ('call' in s) ops.set(s.call, h.invoke(1, 1n, s.key ?? 'k', s.input, 0));
    else if ('ok' in s) h.ok(ops.get(s.ok)!, s.output, s.rev, 0);
    else if ('unknown' in s) h.unknown(ops.get(s.unknown)!, 'timeout', 0);
    else h.failed(ops.get(s.failed)!, 'NoLeader', 0);
  }
  return h;
}

const put = (value: string): KvInput => ({ kind: 'put', value });
const get: KvInput = { kind: 'get' };
const got = (value: string | null, modRevision: bigint): KvOutput => ({ kind: 'get', value, modRevision });
const putOk = (prev: string | null): KvOutput => ({ kind: 'put', prev });

void test('sequential put then get is linearizable', () => {
  const h = history([{ call: 'a', input: put('x') }, { ok: 'a', output: putOk(null), rev: 2n }, { call: 'b', input: get }, { ok: 'b', output: got('x', 2n), rev: 2n }]);
  assert.deepEqual(checkKvHistory(h.ops), []);
});

void test('a stale read after an acknowledged write is not linearizable', () => {
  const h = history([{ call: 'a', input: put('x') }, { ok: 'a', output: putOk(null), rev: 2n }, { call: 'b', input: get }, { ok: 'b', output: got(null, 0n), rev: 2n }]);
  const problems = checkKvLinearizable(h.ops);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!.message, /not linearizable/);
});

void test('overlapping operations may take effect in either order', () => {
  const h = history([
    { call: 'a', input: put('x') },
    { call: 'b', input: get },
    { call: 'c', input: get },
    { ok: 'b', output: got('x', 2n), rev: 2n },
    { ok: 'c', output: got('x', 2n), rev: 2n },
    { ok: 'a', output: putOk(null), rev: 2n },
  ]);
  assert.deepEqual(checkKvHistory(h.ops), []);
});

void test('reads cannot go back once a newer value was seen', () => {
  const h = history([
    { call: 'a', input: put('x') },
    { call: 'b', input: get },
    { ok: 'b', output: got('x', 2n), rev: 2n },
    { call: 'c', input: get },
    { ok: 'c', output: got(null, 0n), rev: 2n },
    { ok: 'a', output: putOk(null), rev: 2n },
  ]);
  assert.equal(checkKvLinearizable(h.ops).length, 1);
});

void test('a write with an unknown outcome may or may not have happened', () => {
  const seen = history([{ call: 'a', input: put('x') }, { unknown: 'a' }, { call: 'b', input: get }, { ok: 'b', output: got('x', 2n), rev: 2n }]);
  assert.deepEqual(checkKvHistory(seen.ops), []);
  const unseen = history([{ call: 'a', input: put('x') }, { unknown: 'a' }, { call: 'b', input: get }, { ok: 'b', output: got(null, 0n), rev: 1n }]);
  assert.deepEqual(checkKvHistory(unseen.ops), []);
});

void test('a delete that removed a key may be explained by an unknown write invoked while the delete ran (seed 307)', () => {
  // The delete is invoked first, the put second; the put's outcome is unknown and its value is
  // never read. Only "put, then delete" explains deleted=1, so the put must stay in the check.
  const h = history([
    { call: 'd', input: { kind: 'del' } },
    { call: 'p', input: put('x') },
    { ok: 'd', output: { kind: 'del', deleted: 1 }, rev: 3n },
    { unknown: 'p' },
    { call: 'g', input: get },
    { ok: 'g', output: got(null, 0n), rev: 3n },
  ]);
  assert.deepEqual(checkKvLinearizable(h.ops), []);
});

void test('a value whose write definitely failed can never be read', () => {
  const h = history([{ call: 'a', input: put('x') }, { failed: 'a' }, { call: 'b', input: get }, { ok: 'b', output: got('x', 2n), rev: 2n }]);
  assert.equal(checkKvLinearizable(h.ops).length, 1);
});

void test('compare-and-swap: success, failure with the current value, and a lost update', () => {
  const ok = history([
    { call: 'a', input: put('x') },
    { ok: 'a', output: putOk(null), rev: 2n },
    { call: 'b', input: { kind: 'cas', expect: 'x', value: 'y' } },
    { ok: 'b', output: { kind: 'cas', succeeded: true, current: null }, rev: 3n },
    { call: 'c', input: { kind: 'cas', expect: 'x', value: 'z' } },
    { ok: 'c', output: { kind: 'cas', succeeded: false, current: 'y' }, rev: 3n },
  ]);
  assert.deepEqual(checkKvHistory(ok.ops), []);
  // Two concurrent swaps from the same expected value cannot both succeed.
  const lost = history([
    { call: 'a', input: put('x') },
    { ok: 'a', output: putOk(null), rev: 2n },
    { call: 'b', input: { kind: 'cas', expect: 'x', value: 'y' } },
    { call: 'c', input: { kind: 'cas', expect: 'x', value: 'z' } },
    { ok: 'b', output: { kind: 'cas', succeeded: true, current: null }, rev: 3n },
    { ok: 'c', output: { kind: 'cas', succeeded: true, current: null }, rev: 4n },
  ]);
  assert.equal(checkKvLinearizable(lost.ops).length, 1);
});

void test('delete reports whether the key existed', () => {
  const h = history([{ call: 'a', input: { kind: 'del' } }, { ok: 'a', output: { kind: 'del', deleted: 1 }, rev: 2n }]);
  assert.equal(checkKvLinearizable(h.ops).length, 1);
});

void test('keys are independent registers', () => {
  const h = history([
    { call: 'a', key: 'k1', input: put('x') },
    { ok: 'a', output: putOk(null), rev: 2n },
    { call: 'b', key: 'k2', input: get },
    { ok: 'b', output: got(null, 0n), rev: 2n },
  ]);
  assert.deepEqual(checkKvHistory(h.ops), []);
});

void test('revisions: a later operation sees at least the revision of an earlier one', () => {
  const h = history([{ call: 'a', input: put('x') }, { ok: 'a', output: putOk(null), rev: 5n }, { call: 'b', key: 'other', input: get }, { ok: 'b', output: got(null, 0n), rev: 4n }]);
  assert.equal(checkRevisions(h.ops).length, 1);
});

void test('revisions: two answered writes never share a revision, and a value has one modRevision', () => {
  const shared = history([{ call: 'a', input: put('x') }, { ok: 'a', output: putOk(null), rev: 5n }, { call: 'b', key: 'other', input: put('y') }, { ok: 'b', output: putOk(null), rev: 5n }]);
  assert.ok(checkRevisions(shared.ops).some((p) => /both changed the store at revision 5/.test(p.message)));
  const moved = history([{ call: 'a', input: put('x') }, { ok: 'a', output: putOk(null), rev: 5n }, { call: 'b', input: get }, { ok: 'b', output: got('x', 6n), rev: 6n }]);
  assert.ok(checkRevisions(moved.ops).some((p) => /read with modRevision 6/.test(p.message)));
});

void test('a longer history with many unknown writes stays tractable', () => {
  const steps: Step[] = [];
  for (let i = 0; i < 12; i++) steps.push({ call: `u${i}`, input: put(`u${i}`) }, { unknown: `u${i}` });
  for (let i = 0; i < 40; i++) {
    steps.push({ call: `r${i}`, input: get }, { ok: `r${i}`, output: got(`u${i % 12}`, BigInt(100 + (i % 12))), rev: 200n });
  }
  const res = checkKvLinearizable(history(steps).ops);
  // Reads cycle through the 12 values: u0 … u11 then u0 again — impossible once u0 was overwritten.
  assert.equal(res.length, 1);
  assert.doesNotMatch(res[0]!.message, /budget/);
});

void test('leases: a leased value goes with its revoked lease; a revoked lease cannot be attached', () => {
  const ok = history([
    { call: 'g', input: { kind: 'grant', lease: '7' } },
    { ok: 'g', output: { kind: 'grant' }, rev: 1n },
    { call: 'p', input: { kind: 'putl', value: 'x', lease: '7' } },
    { ok: 'p', output: { kind: 'putl', prev: null }, rev: 2n },
    { call: 'r', input: { kind: 'revoke', lease: '7' } },
    { ok: 'r', output: { kind: 'revoke' }, rev: 3n },
    { call: 'a', input: get },
    { ok: 'a', output: got(null, 0n), rev: 3n },
    { call: 'q', input: { kind: 'putl', value: 'y', lease: '7' } },
    { ok: 'q', output: { kind: 'lease-missing' }, rev: 3n },
  ]);
  assert.deepEqual(checkKvLinearizable(ok.ops), []);
  const kept = history([
    { call: 'g', input: { kind: 'grant', lease: '7' } },
    { ok: 'g', output: { kind: 'grant' }, rev: 1n },
    { call: 'p', input: { kind: 'putl', value: 'x', lease: '7' } },
    { ok: 'p', output: { kind: 'putl', prev: null }, rev: 2n },
    { call: 'r', input: { kind: 'revoke', lease: '7' } },
    { ok: 'r', output: { kind: 'revoke' }, rev: 3n },
    { call: 'a', input: get },
    { ok: 'a', output: got('x', 2n), rev: 3n },
  ]);
  assert.equal(checkKvLinearizable(kept.ops).length, 1, 'the value survived the revoke of its lease');
  // A plain put detaches the key from its lease: the revoke leaves the new value.
  const detached = history([
    { call: 'g', input: { kind: 'grant', lease: '7' } },
    { ok: 'g', output: { kind: 'grant' }, rev: 1n },
    { call: 'p', input: { kind: 'putl', value: 'x', lease: '7' } },
    { ok: 'p', output: { kind: 'putl', prev: null }, rev: 2n },
    { call: 'b', input: put('y') },
    { ok: 'b', output: putOk('x'), rev: 3n },
    { call: 'r', input: { kind: 'revoke', lease: '7' } },
    { ok: 'r', output: { kind: 'revoke' }, rev: 3n },
    { call: 'a', input: get },
    { ok: 'a', output: got('y', 3n), rev: 3n },
  ]);
  assert.deepEqual(checkKvLinearizable(detached.ops), []);
});
