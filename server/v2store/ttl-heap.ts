/**
 * The nodes with a TTL, ordered by expiry: a binary min-heap keyed by (expireAt, path) so
 * the expiry order is the same on every member. Each node remembers its slot
 * (`heapIndex`), which makes remove/update O(log n).
 *
 * Invariant: a node is in the heap iff it is attached to the tree and `expireAt` is set.
 */
import { compareKeys } from './path.js';
import type { TreeNode } from './node.js';

export class TtlHeap {
  readonly #items: TreeNode[] = [];

  get size(): number {
    return this.#items.length;
  }

  top(): TreeNode | undefined {
    return this.#items[0];
  }

  push(n: TreeNode): void {
    n.heapIndex = this.#items.length;
    this.#items.push(n);
    this.#up(n.heapIndex);
  }

  /** Removes `n` if present. */
  remove(n: TreeNode): void {
    const i = n.heapIndex;
    if (i < 0 || this.#items[i] !== n) return;
    const last = this.#items.pop() as TreeNode;
    n.heapIndex = -1;
    if (last === n) return;
    this.#items[i] = last;
    last.heapIndex = i;
    this.#down(i);
    this.#up(last.heapIndex);
  }

  /** Restores the order after `n.expireAt` changed (pushes it when absent). */
  update(n: TreeNode): void {
    if (n.heapIndex < 0 || this.#items[n.heapIndex] !== n) return this.push(n);
    this.#down(n.heapIndex);
    this.#up(n.heapIndex);
  }

  clear(): void {
    for (const n of this.#items) n.heapIndex = -1;
    this.#items.length = 0;
  }

  #less(a: TreeNode, b: TreeNode): boolean {
    const x = a.expireAt as number;
    const y = b.expireAt as number;
    return x !== y ? x < y : compareKeys(a.path, b.path) < 0;
  }

  #swap(i: number, j: number): void {
    const a = this.#items[i] as TreeNode;
    const b = this.#items[j] as TreeNode;
    this.#items[i] = b;
    this.#items[j] = a;
    a.heapIndex = j;
    b.heapIndex = i;
  }

  #up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.#less(this.#items[i] as TreeNode, this.#items[p] as TreeNode)) return;
      this.#swap(i, p);
      i = p;
    }
  }

  #down(i: number): void {
    const n = this.#items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.#less(this.#items[l] as TreeNode, this.#items[m] as TreeNode)) m = l;
      if (r < n && this.#less(this.#items[r] as TreeNode, this.#items[m] as TreeNode)) m = r;
      if (m === i) return;
      this.#swap(i, m);
      i = m;
    }
  }
}
