/** Shared bits of the v2 store tests: a fixed virtual start time and result unwrapping. */
import assert from 'node:assert/strict';
import type { V2Error, V2Result } from '../../../server/v2store/errors.js';

/** 2026-11-21T09:00:00Z, the virtual "now" of the tests. */
export const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);

export function unwrap<T>(r: V2Result<T>): T {
  if (!r.ok) assert.fail(`expected success, got ${JSON.stringify(r.error, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
  return r.value;
}

export function errorOf<T>(r: V2Result<T>): V2Error {
  if (r.ok) assert.fail('expected a V2Error');
  return r.error;
}
