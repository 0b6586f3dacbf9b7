// Status comparison (status/same-json.ts): equal as JSON values whatever the key order, an
// undefined key is an absent one, arrays keep their order; a status the API server hands back with
// sorted keys is the status the operator computed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameJson } from '../../../operator/controller/status/same-json.js';

void test('key order and undefined keys do not count; values, array order and types do', () => {
  assert.ok(sameJson({ a: 1, b: { c: [1, { d: 'x', e: null }] } }, { b: { c: [1, { e: null, d: 'x' }] }, a: 1 }));
  assert.ok(sameJson({ a: 1, u: undefined }, { a: 1 }));
  assert.ok(sameJson({ a: 1 }, { u: undefined, a: 1 }));
  assert.ok(!sameJson({ a: 1 }, { a: 1, b: null }));
  assert.ok(!sameJson({ a: [1, 2] }, { a: [2, 1] }));
  assert.ok(!sameJson({ a: 1 }, { a: '1' }));
  assert.ok(!sameJson([{ a: 1 }], { 0: { a: 1 } }));
  assert.ok(!sameJson({ a: {} }, { a: [] }));
  assert.ok(!sameJson({ a: 1, b: 2 }, { a: 1, c: 2 }));
  assert.ok(sameJson(null, null) && !sameJson(null, {}) && !sameJson(0, false));
});

void test('a status as the API server serves it (sorted keys) is the status computed', () => {
  const computed = {
    phase: 'Running', observedGeneration: 2, clusterVersion: '3.4.0', readyMembers: '3/3',
    members: [{ name: 'demo-0', id: '0000000000000001', version: '3.4.0', healthy: true, leader: true, clientURL: 'http://demo-0:2379' }],
    conditions: [{ type: 'Available', status: 'True', reason: 'QuorumHealthy', message: '3 of 3 members are healthy', lastTransitionTime: '2026-01-01T00:00:00.000Z', observedGeneration: 2 }],
  };
  const served = JSON.parse(JSON.stringify(computed, (_k, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v)) as unknown;
  assert.notEqual(JSON.stringify(served), JSON.stringify(computed));
  assert.ok(sameJson(served, computed));
  assert.ok(!sameJson(served, { ...computed, conditions: [{ ...computed.conditions[0], lastTransitionTime: '2026-01-01T00:00:05.000Z' }] }));
});
