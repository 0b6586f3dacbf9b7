/**
 * A binary min-heap of timers ordered by (at, seq): earliest first, and among timers due at
 * the same virtual millisecond, the one scheduled first. `seq` is unique, so the order is
 * total and the simulation never depends on how the heap breaks ties.
 */

export interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
  /** Skipped when it comes due (cancelled, or its owner is gone). */
  cancelled: boolean;
  readonly owner: Life | undefined;
}

/** The lifetime of one process incarnation: callbacks owned by a dead life never run. */
export interface Life {
  readonly name: string;
  alive: boolean;
}

const before = (a: Timer, b: Timer): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

export class TimerHeap {
  readonly #items: Timer[] = [];

  get size(): number {
    return this.#items.length;
  }

  peek(): Timer | undefined {
    return this.#items[0];
  }

  push(t: Timer): void {
    const items = this.#items;
    items.push(t);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): Timer | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    items[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < items.length && before(items[l]!, items[m]!)) m = l;
      if (r < items.length && before(items[r]!, items[m]!)) m = r;
      if (m === i) break;
      [items[i], items[m]] = [items[m]!, items[i]!];
      i = m;
    }
    return top;
  }
}
