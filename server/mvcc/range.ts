/**
 * Range semantics shared by store reads and transaction reads (ETCD-FACTS §3.3), in the order
 * etcd applies them:
 * 1. fetch: keys in key order; `count` = every key in the range at the revision. When the
 *    request sorts (sort_order ≠ NONE) or filters by min/max revisions, all keys are fetched;
 *    otherwise at most limit+1 (so `more` can be told);
 * 2. count_only → no kvs, `more` false;
 * 3. drop kvs outside the min/max mod/create revision bounds (0 = no bound, inclusive);
 * 4. sort (a non-KEY target with order NONE sorts ASCEND), stable;
 * 5. truncate to `limit`, `more` = something was cut; keys_only drops values.
 * Pure module. Returned KeyValues may be shared with the store: callers must not mutate them.
 */
import type { KeyValue } from '../../proto/gen/etcd/kv.js';
import { withoutValue } from './kv-codec.js';
import type { KeyBounds } from './key-range.js';
import type { KeyIndex } from './key-index.js';
import type { TreeIndex } from './tree-index.js';
import { SortOrder, SortTarget, type RangeParams, type RangeResult } from './types.js';

/** How many keys step 1 must fetch (0 = all). */
export function fetchLimit(params: RangeParams): number {
  if (
    params.sortOrder !== SortOrder.None ||
    params.minModRevision !== 0n ||
    params.maxModRevision !== 0n ||
    params.minCreateRevision !== 0n ||
    params.maxCreateRevision !== 0n
  ) {
    return 0;
  }
  return params.limit > 0n ? Number(params.limit) + 1 : 0;
}

/** Keys of a range and the position (in their KeyIndex) of the revision a read sees. */
export interface RangeHits {
  readonly kis: KeyIndex[];
  readonly positions: number[];
  /** Every key of the range visible at the revision (not capped by the limit). */
  readonly count: number;
}

/**
 * The keys in `bounds` visible at main revision `main` (all revisions when `main` is
 * undefined: the current ones), at most `limit` of them (0 = all); `count` counts all.
 */
export function collectHits(index: TreeIndex, bounds: KeyBounds, main: number | undefined, limit: number, countOnly: boolean): RangeHits {
  const kis: KeyIndex[] = [];
  const positions: number[] = [];
  let count = 0;
  const max = countOnly ? 0 : limit === 0 ? Number.MAX_SAFE_INTEGER : limit;
  index.forEachInRange(bounds, (ki) => {
    let pos: number;
    if (main === undefined) {
      if (!ki.isLive) return;
      pos = ki.size - 1;
    } else {
      pos = ki.posAt(main);
      if (pos < 0) return;
    }
    if (count < max) {
      kis.push(ki);
      positions.push(pos);
    }
    count++;
  });
  return { kis, positions, count };
}

/** Whether finishRange needs the records' values (not for counts, nor keys_only unless sorting by value). */
export function needsValues(params: RangeParams): boolean {
  return !params.countOnly && !(params.keysOnly && params.sortTarget !== SortTarget.Value);
}

function compareBigint(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparatorFor(target: number): (a: KeyValue, b: KeyValue) => number {
  switch (target) {
    case SortTarget.Version:
      return (a, b) => compareBigint(a.version, b.version);
    case SortTarget.Create:
      return (a, b) => compareBigint(a.createRevision, b.createRevision);
    case SortTarget.Mod:
      return (a, b) => compareBigint(a.modRevision, b.modRevision);
    case SortTarget.Value:
      return (a, b) => Buffer.compare(a.value, b.value);
    default:
      return (a, b) => Buffer.compare(a.key, b.key);
  }
}

function prune(params: RangeParams, kvs: KeyValue[]): KeyValue[] {
  const { minModRevision: minMod, maxModRevision: maxMod, minCreateRevision: minCreate, maxCreateRevision: maxCreate } = params;
  if (minMod === 0n && maxMod === 0n && minCreate === 0n && maxCreate === 0n) return kvs;
  return kvs.filter(
    (kv) =>
      (maxMod === 0n || kv.modRevision <= maxMod) &&
      (minMod === 0n || kv.modRevision >= minMod) &&
      (maxCreate === 0n || kv.createRevision <= maxCreate) &&
      (minCreate === 0n || kv.createRevision >= minCreate),
  );
}

function sortInPlace(params: RangeParams, kvs: KeyValue[]): void {
  let order = params.sortOrder;
  const target = params.sortTarget;
  if (target !== SortTarget.Key && order === SortOrder.None) order = SortOrder.Ascend;
  if (order === SortOrder.None || kvs.length < 2) return;
  const isKey = target !== SortTarget.Version && target !== SortTarget.Create && target !== SortTarget.Mod && target !== SortTarget.Value;
  if (isKey) {
    // Fetched in ascending key order already.
    if (order === SortOrder.Descend) kvs.reverse();
    return;
  }
  const cmp = comparatorFor(target);
  kvs.sort(order === SortOrder.Descend ? (a, b) => cmp(b, a) : cmp);
}

/** Steps 2–5 on what step 1 fetched (`kvs` in key order; it may be reordered in place). */
export function finishRange(params: RangeParams, fetched: KeyValue[], count: number): RangeResult {
  if (params.countOnly) return { kvs: [], count: BigInt(count), more: false };
  let kvs = prune(params, fetched);
  sortInPlace(params, kvs);
  let more = false;
  if (params.limit > 0n && kvs.length > params.limit) {
    kvs.length = Number(params.limit);
    more = true;
  }
  if (params.keysOnly) kvs = kvs.map(withoutValue);
  return { kvs, count: BigInt(count), more };
}
