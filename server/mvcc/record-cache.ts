/**
 * A bounded cache of the newest records of recently used keys (values included), so that
 * write transactions and reads on hot keys skip the backend.
 *
 * Two generations: entries go into `young`; when it holds half the byte budget (key + value +
 * a fixed per-entry overhead) it becomes `old` and the previous old generation is dropped
 * whole. A hit in `old` moves the entry to `young`. Every operation is O(1) and memory stays
 * below the budget; a record bigger than an eighth of the budget is not kept.
 *
 * Entries are checked on every lookup: a cached record counts only if its mod revision is the
 * one the key index names as the key's newest, so a stale entry is never served. Pure module;
 * one instance per store state.
 */
import type { KeyValue } from '../../proto/gen/etcd/kv.js';

/** Bytes counted per entry besides key and value (objects, map slot). */
const ENTRY_OVERHEAD = 160;

function sizeOf(kv: KeyValue): number {
  return kv.key.length + kv.value.length + ENTRY_OVERHEAD;
}

export class RecordCache {
  private young = new Map<string, KeyValue>();
  private old = new Map<string, KeyValue>();
  private youngBytes = 0;
  private oldBytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The cached record of key `name` if its mod revision is `main`. */
  get(name: string, main: number): KeyValue | undefined {
    let kv = this.young.get(name);
    if (kv === undefined) {
      kv = this.old.get(name);
      if (kv === undefined || Number(kv.modRevision) !== main) return undefined;
      this.set(name, kv);
      return kv;
    }
    return Number(kv.modRevision) === main ? kv : undefined;
  }

  /** Keeps `kv` as the newest record of key `name`. */
  set(name: string, kv: KeyValue): void {
    const size = sizeOf(kv);
    if (size > this.maxBytes / 8) {
      this.delete(name);
      return;
    }
    const before = this.young.get(name);
    if (before !== undefined) this.youngBytes -= sizeOf(before);
    this.young.set(name, kv);
    this.youngBytes += size;
    if (this.youngBytes > this.maxBytes / 2) {
      this.old = this.young;
      this.oldBytes = this.youngBytes;
      this.young = new Map();
      this.youngBytes = 0;
    }
  }

  delete(name: string): void {
    const y = this.young.get(name);
    if (y !== undefined) {
      this.young.delete(name);
      this.youngBytes -= sizeOf(y);
    }
    const o = this.old.get(name);
    if (o !== undefined) {
      this.old.delete(name);
      this.oldBytes -= sizeOf(o);
    }
  }

  /** Bytes held (as counted). */
  get size(): number {
    return this.youngBytes + this.oldBytes;
  }
}
