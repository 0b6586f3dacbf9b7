import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import { checkPut, checkRange, checkTxn } from '../../../server/apply/validate.js';

const b = (s: string): Buffer => Buffer.from(s);
const put = (key: string, extra: Partial<pb.PutRequest> = {}): pb.RequestOp => ({
  request: { $case: 'requestPut', value: { key: b(key), value: b('v'), lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false, ...extra } },
});
const del = (key: string, end = ''): pb.RequestOp => ({
  request: { $case: 'requestDeleteRange', value: { key: b(key), rangeEnd: b(end), prevKv: false } },
});
const nested = (success: pb.RequestOp[], failure: pb.RequestOp[] = []): pb.RequestOp => ({
  request: { $case: 'requestTxn', value: { compare: [], success, failure } },
});
const txn = (success: pb.RequestOp[], failure: pb.RequestOp[] = []): pb.TxnRequest => ({ compare: [], success, failure });

void test('empty keys are refused', () => {
  assert.deepEqual(checkRange({ key: b('') } as pb.RangeRequest), { kind: 'EmptyKey' });
  assert.deepEqual(checkPut({ key: b(''), value: b('x') } as pb.PutRequest), { kind: 'EmptyKey' });
});

void test('ignore_value with a value and ignore_lease with a lease are refused', () => {
  const base = { key: b('k'), value: b(''), lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false };
  assert.deepEqual(checkPut({ ...base, ignoreValue: true, value: b('x') }), { kind: 'ValueProvided' });
  assert.deepEqual(checkPut({ ...base, ignoreLease: true, lease: 5n }), { kind: 'LeaseProvided' });
  assert.equal(checkPut({ ...base, ignoreValue: true }), undefined);
});

void test('txn op limits apply per list', () => {
  const ops = Array.from({ length: 129 }, (_, i) => put(`k${i}`));
  assert.deepEqual(checkTxn(txn(ops), 128), { kind: 'TooManyOps' });
  assert.equal(checkTxn(txn(ops.slice(0, 128)), 128), undefined);
});

void test('an empty op inside a txn is KeyNotFound', () => {
  assert.deepEqual(checkTxn(txn([{ request: undefined }]), 128), { kind: 'KeyNotFound' });
});

const dupCases: ReadonlyArray<readonly [string, pb.TxnRequest, boolean]> = [
  ['same key put twice', txn([put('a'), put('a')]), true],
  ['different keys', txn([put('a'), put('b')]), false],
  ['put inside a delete range', txn([del('a', 'c'), put('b')]), true],
  ['put outside a delete range', txn([del('a', 'b'), put('b')]), false],
  ['put under an open-ended delete', txn([del('a', '\0'), put('zzz')]), true],
  ['put equal to a single-key delete', txn([del('a'), put('a')]), true],
  ['success and failure branches are independent', txn([put('a')], [put('a')]), false],
  ['nested then/else may put the same key', txn([nested([put('a')], [put('a')])]), false],
  ['nested put collides with outer put', txn([put('a'), nested([put('a')])]), true],
  ['nested else put collides with outer put', txn([put('a'), nested([], [put('a')])]), true],
  ['outer put inside a nested delete', txn([nested([del('a', 'z')]), put('b')]), true],
];

for (const [name, t, dup] of dupCases) {
  void test(`duplicate-key rule: ${name}`, () => {
    assert.deepEqual(checkTxn(t, 128), dup ? { kind: 'DuplicateKey' } : undefined);
  });
}
