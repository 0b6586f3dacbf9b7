/**
 * The record ledger: for every record of the backend's `key` bucket, in revision order, its
 * revision (main, sub), whether it is a tombstone and the byte length of its stored value.
 * The store keeps it equal to the bucket (flush.ts adds, compaction.ts removes, recover.ts
 * rebuilds, all inside the io queue); `freeze()` taken in the same io task as a pinned backend
 * view describes that view exactly, so a snapshot writer can lay out a file before scanning.
 *
 * Shape: four parallel typed arrays (grown ×2), no object per record. Entries stay sorted by
 * (main, sub). Appending in order is O(1) amortised; an out-of-order add inserts in place;
 * an add at an existing revision replaces it. `remove` finds the entry by binary search and
 * only marks it dead (state DEAD); the arrays are compacted in one pass once dead entries
 * outnumber live ones, and `freeze()` copies only live entries. Pure module: no I/O.
 *
 * Example: add(2,0,put,5) add(3,0,put,7) add(3,1,tomb,1) remove(2,0) →
 *   main [2,3,3] sub [0,0,1] state [DEAD,PUT,TOMB] value [5,7,1], length 2, dead 1;
 *   freeze() → main [3,3] sub [0,1] tombstone [0,1] valueLength [7,1].
 *
 * Space accounting (the backend size reported for the quota, Status and the size gauges, as
 * etcd reports its bbolt file): a record occupies `recordBytes` (revision key + stored value +
 * RECORD_OVERHEAD). `bytesInUse` is the sum over live records; `bytesAllocated` is its high-water
 * mark since the ledger was made or last `shrinkToFit` — like a bbolt file, it grows with what
 * is written, does not shrink when compaction frees records (their space is reused first), and
 * falls to `bytesInUse` at a defragmentation. In the example: in use 5+7+1 + 17+17+18 + 3×16
 * = 113 after the adds, 113−(17+5+16) = 75 after the remove; allocated stays 113.
 */

/** Frozen copy of the ledger: the key bucket's records in ascending revision order. */
export interface RecordSizes {
  readonly length: number;
  /** Main revision of record i (indices 0..length-1 valid). */
  readonly main: Float64Array;
  /** Sub revision of record i. */
  readonly sub: Uint32Array;
  /** 1 when record i is a tombstone. */
  readonly tombstone: Uint8Array;
  /** Bytes of record i's stored value. */
  readonly valueLength: Uint32Array;
}

/**
 * Bytes one record costs besides its revision key and value: bbolt's leaf element header
 * (16 bytes), the per-record cost of the file etcd reports.
 */
export const RECORD_OVERHEAD = 16;
/** Revision key length: main (8) '_' sub (8), plus the tombstone mark 't'. */
const KEY_BYTES = 17;

/** Bytes a record occupies in the space accounting. */
export function recordBytes(tombstone: boolean, valueLength: number): number {
  return KEY_BYTES + (tombstone ? 1 : 0) + valueLength + RECORD_OVERHEAD;
}

/** Entry states (the `tombstone` array of a frozen copy holds only PUT or TOMB). */
const PUT = 0;
const TOMB = 1;
const DEAD = 2;

const INITIAL_CAPACITY = 1024;

export class RecordLedger {
  private main = new Float64Array(INITIAL_CAPACITY);
  private sub = new Uint32Array(INITIAL_CAPACITY);
  private state = new Uint8Array(INITIAL_CAPACITY);
  private valueLength = new Uint32Array(INITIAL_CAPACITY);
  /** Entries in the arrays, dead ones included. */
  private used = 0;
  private dead = 0;
  private inUse = 0;
  private allocated = 0;

  /** A ledger holding exactly `records` (a frozen copy, in revision order: an index checkpoint's). */
  static of(records: RecordSizes): RecordLedger {
    const ledger = new RecordLedger();
    const n = records.length;
    const capacity = Math.max(INITIAL_CAPACITY, n);
    ledger.main = new Float64Array(capacity);
    ledger.sub = new Uint32Array(capacity);
    ledger.state = new Uint8Array(capacity);
    ledger.valueLength = new Uint32Array(capacity);
    ledger.main.set(records.main.subarray(0, n));
    ledger.sub.set(records.sub.subarray(0, n));
    ledger.state.set(records.tombstone.subarray(0, n));
    ledger.valueLength.set(records.valueLength.subarray(0, n));
    for (let i = 1; i < n; i++) {
      if (!after(ledger.main[i]!, ledger.sub[i]!, ledger.main[i - 1]!, ledger.sub[i - 1]!)) throw new Error('mvcc: record ledger out of revision order');
    }
    ledger.used = n;
    for (let i = 0; i < n; i++) ledger.inUse += recordBytes(ledger.state[i] === TOMB, ledger.valueLength[i]!);
    ledger.allocated = ledger.inUse;
    return ledger;
  }

  /** Live records. */
  get length(): number {
    return this.used - this.dead;
  }

  /** Bytes of the live records (see the header: space accounting). */
  get bytesInUse(): number {
    return this.inUse;
  }

  /** High-water mark of `bytesInUse` since the ledger was made or last shrunk to fit. */
  get bytesAllocated(): number {
    return this.allocated;
  }

  /** A defragmentation: the allocated bytes become the bytes in use. */
  shrinkToFit(): void {
    this.allocated = this.inUse;
  }

  /** Adds a record; an add at a revision already present (live or dead) replaces that entry. */
  add(main: number, sub: number, tombstone: boolean, valueLength: number): void {
    const n = this.used;
    let at = n;
    if (n > 0 && !after(main, sub, this.main[n - 1]!, this.sub[n - 1]!)) {
      at = this.lowerBound(main, sub);
      if (at < n && this.main[at] === main && this.sub[at] === sub) {
        if (this.state[at] === DEAD) this.dead--;
        else this.inUse -= this.bytesAt(at);
        this.set(at, main, sub, tombstone, valueLength);
        return;
      }
    }
    if (n === this.main.length) this.grow();
    if (at < n) {
      this.main.copyWithin(at + 1, at, n);
      this.sub.copyWithin(at + 1, at, n);
      this.state.copyWithin(at + 1, at, n);
      this.valueLength.copyWithin(at + 1, at, n);
    }
    this.set(at, main, sub, tombstone, valueLength);
    this.used = n + 1;
  }

  /** Removes the record at (main, sub) if present. */
  remove(main: number, sub: number): void {
    const at = this.lowerBound(main, sub);
    if (at === this.used || this.main[at] !== main || this.sub[at] !== sub || this.state[at] === DEAD) return;
    this.inUse -= this.bytesAt(at);
    this.state[at] = DEAD;
    this.dead++;
    if (this.dead > this.used - this.dead) this.compactDead();
  }

  /** A copy of the live records (typed arrays trimmed to length) that later changes do not affect. */
  freeze(): RecordSizes {
    const length = this.length;
    if (this.dead === 0) {
      return {
        length,
        main: this.main.slice(0, length),
        sub: this.sub.slice(0, length),
        tombstone: this.state.slice(0, length),
        valueLength: this.valueLength.slice(0, length),
      };
    }
    const out = { length, main: new Float64Array(length), sub: new Uint32Array(length), tombstone: new Uint8Array(length), valueLength: new Uint32Array(length) };
    let j = 0;
    for (let i = 0; i < this.used; i++) {
      const s = this.state[i]!;
      if (s === DEAD) continue;
      out.main[j] = this.main[i]!;
      out.sub[j] = this.sub[i]!;
      out.tombstone[j] = s;
      out.valueLength[j] = this.valueLength[i]!;
      j++;
    }
    return out;
  }

  /** Writes entry `at` (live) and counts its bytes in use. */
  private set(at: number, main: number, sub: number, tombstone: boolean, valueLength: number): void {
    this.main[at] = main;
    this.sub[at] = sub;
    this.state[at] = tombstone ? TOMB : PUT;
    this.valueLength[at] = valueLength;
    this.inUse += recordBytes(tombstone, valueLength);
    if (this.inUse > this.allocated) this.allocated = this.inUse;
  }

  private bytesAt(at: number): number {
    return recordBytes(this.state[at] === TOMB, this.valueLength[at]!);
  }

  /** The first index whose entry is not before (main, sub). */
  private lowerBound(main: number, sub: number): number {
    let lo = 0;
    let hi = this.used;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (after(main, sub, this.main[mid]!, this.sub[mid]!)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private grow(): void {
    const capacity = this.main.length * 2;
    this.main = grown(this.main, new Float64Array(capacity));
    this.sub = grown(this.sub, new Uint32Array(capacity));
    this.state = grown(this.state, new Uint8Array(capacity));
    this.valueLength = grown(this.valueLength, new Uint32Array(capacity));
  }

  /** Drops the dead entries in one pass, keeping order. */
  private compactDead(): void {
    let j = 0;
    for (let i = 0; i < this.used; i++) {
      if (this.state[i] === DEAD) continue;
      if (j !== i) {
        this.main[j] = this.main[i]!;
        this.sub[j] = this.sub[i]!;
        this.state[j] = this.state[i]!;
        this.valueLength[j] = this.valueLength[i]!;
      }
      j++;
    }
    this.used = j;
    this.dead = 0;
  }
}

/** (main, sub) comes strictly after (m, s). */
function after(main: number, sub: number, m: number, s: number): boolean {
  return main > m || (main === m && sub > s);
}

function grown<T extends Float64Array | Uint32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
