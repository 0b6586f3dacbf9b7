/**
 * An indexed min-heap of (lease id, due time in ms): the lessor's schedule of leases to check.
 *
 * Invariants: each id appears at most once; `upsert` moves an existing entry in place
 * (O(log n)); ties on the due time break by id (ascending) so iteration order is
 * deterministic. Pure data structure: no clock, no I/O.
 */
interface Entry {
  readonly id: bigint;
  dueMs: number;
}

export class ExpiryQueue {
  private readonly heap: Entry[] = [];
  private readonly index = new Map<bigint, number>();

  get size(): number {
    return this.heap.length;
  }

  has(id: bigint): boolean {
    return this.index.has(id);
  }

  /** Inserts `id` or moves it to `dueMs`. */
  upsert(id: bigint, dueMs: number): void {
    const at = this.index.get(id);
    if (at === undefined) {
      this.heap.push({ id, dueMs });
      this.index.set(id, this.heap.length - 1);
      this.up(this.heap.length - 1);
      return;
    }
    const entry = this.heap[at]!;
    const earlier = dueMs < entry.dueMs;
    entry.dueMs = dueMs;
    if (earlier) this.up(at);
    else this.down(at);
  }

  remove(id: bigint): void {
    const at = this.index.get(id);
    if (at === undefined) return;
    const last = this.heap.length - 1;
    this.swap(at, last);
    this.heap.pop();
    this.index.delete(id);
    if (at < this.heap.length) {
      this.down(at);
      this.up(at);
    }
  }

  /** The entry due first, without removing it. */
  peek(): { readonly id: bigint; readonly dueMs: number } | undefined {
    return this.heap[0];
  }

  clear(): void {
    this.heap.length = 0;
    this.index.clear();
  }

  private less(a: number, b: number): boolean {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    return x.dueMs < y.dueMs || (x.dueMs === y.dueMs && x.id < y.id);
  }

  private swap(a: number, b: number): void {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    this.heap[a] = y;
    this.heap[b] = x;
    this.index.set(y.id, a);
    this.index.set(x.id, b);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      if (l < n && this.less(l, smallest)) smallest = l;
      if (r < n && this.less(r, smallest)) smallest = r;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
