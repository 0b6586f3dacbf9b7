/**
 * The committed lists the gate reads, in `test/etcd-e2e/`:
 *
 * - `reference.json`: etcd 3.4.23's own result for every test on this machine (refreshed by
 *   `node test/etcd-e2e/run.mjs --server etcd --record`).
 * - `accepted.json`: tests kvstore may fail because they are out of its scope (they read
 *   `etcd_`-prefixed metric names, or read/corrupt etcd's bbolt and WAL files offline), each with its reason.
 * - `known-open.json`: tests kvstore fails today that are NOT accepted — open work, listed so the gate
 *   can pass meanwhile; an entry goes as soon as its test passes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listsDir } from './paths.js';
import type { Outcome, Result } from './run-one.js';

export interface ReferenceEntry {
  readonly result: Result;
  readonly seconds: number;
  readonly reason?: string;
}

export interface Reference {
  readonly server: string;
  readonly recorded: string;
  readonly machine: string;
  readonly timeoutSeconds: number;
  readonly counts: Readonly<Record<Result, number>>;
  readonly tests: Readonly<Record<string, ReferenceEntry>>;
}

/** A list of test names, each with the reason it is on the list. */
export interface TestList {
  readonly about: string;
  readonly tests: Readonly<Record<string, string>>;
}

export interface Lists {
  readonly reference: Reference | undefined;
  readonly accepted: TestList;
  readonly knownOpen: TestList;
}

const file = (name: string): string => join(listsDir(), name);

function readList(name: string): TestList {
  return JSON.parse(readFileSync(file(name), 'utf8')) as TestList;
}

export function readLists(): Lists {
  const refPath = file('reference.json');
  const reference = existsSync(refPath) ? (JSON.parse(readFileSync(refPath, 'utf8')) as Reference) : undefined;
  return { reference, accepted: readList('accepted.json'), knownOpen: readList('known-open.json') };
}

export function countResults(outcomes: Iterable<{ readonly result: Result }>): Record<Result, number> {
  const counts: Record<Result, number> = { pass: 0, fail: 0, timeout: 0, skip: 0 };
  for (const o of outcomes) counts[o.result]++;
  return counts;
}

/**
 * Writes reference.json from etcd's `outcomes`. With `merge` (a partial run), entries of tests not
 * run are kept from the previous reference.
 */
export function writeReference(outcomes: readonly Outcome[], meta: { server: string; machine: string; timeoutSeconds: number }, merge: Reference | undefined): Reference {
  const tests: Record<string, ReferenceEntry> = { ...(merge?.tests ?? {}) };
  for (const o of outcomes) tests[o.name] = o.reason === undefined ? { result: o.result, seconds: o.seconds } : { result: o.result, seconds: o.seconds, reason: o.reason };
  const reference: Reference = { ...meta, recorded: new Date().toISOString(), counts: countResults(Object.values(tests)), tests };
  writeFileSync(file('reference.json'), `${JSON.stringify(reference, null, 2)}\n`);
  return reference;
}
