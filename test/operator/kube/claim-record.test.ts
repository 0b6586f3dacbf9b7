// Table tests of the member claim record (operator/runtime/kube-platform/claim-record.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLAIMS_ANNOTATION, keepBelow, liveClaims, lostPods, parseRecord, toRecord } from '../../../operator/runtime/kube-platform/claim-record.js';

const claim = (name: string, uid: string, deleting = false) => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim',
  metadata: { name, uid, ...(deleting ? { deletionTimestamp: '2026-03-01T10:00:00Z' } : {}) },
});

void test('claim record: parsed from the annotation; absent or broken = empty', () => {
  assert.deepEqual(parseRecord(undefined), {});
  assert.deepEqual(parseRecord({ [CLAIMS_ANNOTATION]: 'not json' }), {});
  assert.deepEqual(parseRecord({ [CLAIMS_ANNOTATION]: '[1]' }), {});
  assert.deepEqual(parseRecord({ [CLAIMS_ANNOTATION]: '{"demo-0":"u0","demo-1":7}' }), { 'demo-0': 'u0' });
});

void test('claim record: running pods with a live claim and no entry are recorded; claims being deleted are not', () => {
  const live = liveClaims([claim('data-demo-0', 'u0'), claim('data-demo-1', 'u1', true), claim('data-demo-2', 'u2')]);
  assert.deepEqual(toRecord({ 'demo-0': 'u0' }, live, ['demo-0', 'demo-1', 'demo-2']), { 'demo-2': 'u2' });
  assert.deepEqual(toRecord({}, live, []), {});
});

void test('claim record: a recorded claim replaced (other uid) or gone (or being deleted) = data lost', () => {
  const record = { 'demo-0': 'u0', 'demo-1': 'u1', 'demo-2': 'u2' };
  assert.deepEqual([...lostPods(record, liveClaims([claim('data-demo-0', 'u0'), claim('data-demo-1', 'u1'), claim('data-demo-2', 'u2')]))], []);
  assert.deepEqual([...lostPods(record, liveClaims([claim('data-demo-0', 'u0'), claim('data-demo-1', 'new'), claim('data-demo-2', 'u2')]))], ['demo-1']);
  assert.deepEqual([...lostPods(record, liveClaims([claim('data-demo-0', 'u0'), claim('data-demo-2', 'u2', true)]))], ['demo-1', 'demo-2']);
});

void test('claim record: entries of ordinals a scale change creates or removes are dropped', () => {
  assert.deepEqual(keepBelow({ 'demo-0': 'a', 'demo-1': 'b', 'demo-3': 'c', 'demo-10': 'd' }, 'demo', 2), { 'demo-0': 'a', 'demo-1': 'b' });
});
