/**
 * A dynamic interval index: half-open string intervals [start, end) (end `null` = unbounded)
 * answering "which intervals contain point p" in O(log n + k) expected time.
 *
 * Structure: a treap ordered by (start, id), each node augmented with the largest end in its
 * subtree (CLRS interval tree). A stabbing query skips any subtree whose largest end is ≤ p,
 * and any right subtree once a node starts after p. Priorities are a hash of the id, so the
 * shape is deterministic for a given sequence of operations (no RNG).
 *
 * Ids must be unique among live entries; the caller owns them.
 */

interface Node<T> {
  readonly start: string;
  readonly end: string | null;
  readonly id: number;
  readonly value: T;
  readonly priority: number;
  left: Node<T> | undefined;
  right: Node<T> | undefined;
  maxEnd: string | null;
}

/** a > b where null is +∞. */
const endAfter = (a: string | null, b: string): boolean => a === null || a > b;
const maxOf = (a: string | null, b: string | null): string | null => (a === null || b === null ? null : a > b ? a : b);

/** A 32-bit integer mix (murmur3 finaliser) used as the treap priority. */
function mix(id: number): number {
  let h = id | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function update<T>(n: Node<T>): void {
  let m: string | null = n.end;
  if (n.left) m = maxOf(m, n.left.maxEnd);
  if (n.right) m = maxOf(m, n.right.maxEnd);
  n.maxEnd = m;
}

function before<T>(start: string, id: number, n: Node<T>): boolean {
  return start < n.start || (start === n.start && id < n.id);
}

function rotateRight<T>(n: Node<T>): Node<T> {
  const l = n.left as Node<T>;
  n.left = l.right;
  l.right = n;
  update(n);
  update(l);
  return l;
}

function rotateLeft<T>(n: Node<T>): Node<T> {
  const r = n.right as Node<T>;
  n.right = r.left;
  r.left = n;
  update(n);
  update(r);
  return r;
}

function insert<T>(n: Node<T> | undefined, x: Node<T>): Node<T> {
  if (!n) return x;
  if (before(x.start, x.id, n)) {
    n.left = insert(n.left, x);
    if (n.left.priority > n.priority) return rotateRight(n);
  } else {
    n.right = insert(n.right, x);
    if (n.right.priority > n.priority) return rotateLeft(n);
  }
  update(n);
  return n;
}

/** Removes the node (start, id); `removed.hit` tells whether it existed. */
function remove<T>(n: Node<T> | undefined, start: string, id: number, removed: { hit: boolean }): Node<T> | undefined {
  if (!n) return undefined;
  if (n.id === id && n.start === start) {
    removed.hit = true;
    if (!n.left) return n.right;
    if (!n.right) return n.left;
    if (n.left.priority > n.right.priority) {
      const top = rotateRight(n);
      top.right = remove(top.right, start, id, removed);
      update(top);
      return top;
    }
    const top = rotateLeft(n);
    top.left = remove(top.left, start, id, removed);
    update(top);
    return top;
  }
  if (before(start, id, n)) n.left = remove(n.left, start, id, removed);
  else n.right = remove(n.right, start, id, removed);
  update(n);
  return n;
}

function stab<T>(n: Node<T> | undefined, p: string, out: (value: T) => void): void {
  if (!n || !endAfter(n.maxEnd, p)) return;
  stab(n.left, p, out);
  if (n.start > p) return;
  if (endAfter(n.end, p)) out(n.value);
  stab(n.right, p, out);
}

export class IntervalIndex<T> {
  private root: Node<T> | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds [start, end) under `id` (unique among live entries). */
  add(start: string, end: string | null, id: number, value: T): void {
    const node: Node<T> = { start, end, id, value, priority: mix(id), left: undefined, right: undefined, maxEnd: end };
    this.root = insert(this.root, node);
    this.count++;
  }

  /** Removes the entry added with (start, id); returns whether it was present. */
  delete(start: string, id: number): boolean {
    const removed = { hit: false };
    this.root = remove(this.root, start, id, removed);
    if (removed.hit) this.count--;
    return removed.hit;
  }

  /** Calls `out` for every entry, in (start, id) order. */
  forEach(out: (value: T) => void): void {
    const walk = (n: Node<T> | undefined): void => {
      if (!n) return;
      walk(n.left);
      out(n.value);
      walk(n.right);
    };
    walk(this.root);
  }

  /** Calls `out` for every interval containing `point`, in (start, id) order. */
  stab(point: string, out: (value: T) => void): void {
    stab(this.root, point, out);
  }
}
