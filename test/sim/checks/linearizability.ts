/**
 * A linearizability checker: the Wing–Gong search with Lowe's memoization (as in Knossos
 * and Porcupine). Operations are intervals [call, ret] on one time line; an operation whose
 * outcome is unknown has ret = Infinity (it may take effect at any point after its call,
 * or — for a model where that is the same thing — never).
 *
 * Search: walk the list of call/return events; at a call, try to linearize that operation
 * now (the model must accept its output in the current state); at a return whose operation
 * is not linearized yet, backtrack. A (set of linearized ops, model state) pair reached
 * once is never explored again. Returns the longest linearizable prefix found on failure.
 */

export interface Model<S, I, O> {
  readonly init: S;
  /** The state after `input` produced `output` in `state`; undefined if it could not have. `output` undefined: unknown. */
  step(state: S, input: I, output: O | undefined): S | undefined;
  /** A string that identifies `state` (for memoization). */
  key(state: S): string;
}

export interface LinOp<I, O> {
  readonly id: number;
  readonly call: number;
  /** Infinity when the outcome is unknown. */
  readonly ret: number;
  readonly input: I;
  /** undefined when unknown. */
  readonly output: O | undefined;
}

export type LinResult =
  | { readonly ok: true; readonly explored: number }
  | { readonly ok: false; readonly explored: number; readonly inconclusive: boolean; readonly longestPrefix: readonly number[] };

interface Node {
  readonly op: number;
  readonly isCall: boolean;
  readonly time: number;
  match: Node | undefined;
  prev: Node | undefined;
  next: Node | undefined;
}

class Bits {
  readonly words: Uint32Array;
  constructor(n: number) {
    this.words = new Uint32Array((n + 31) >>> 5);
  }
  set(i: number): void {
    this.words[i >>> 5]! |= 1 << (i & 31);
  }
  clear(i: number): void {
    this.words[i >>> 5]! &= ~(1 << (i & 31));
  }
  key(): string {
    return this.words.join(',');
  }
}

function buildList<I, O>(ops: readonly LinOp<I, O>[]): Node {
  const events: Node[] = [];
  ops.forEach((op, i) => {
    const call: Node = { op: i, isCall: true, time: op.call, match: undefined, prev: undefined, next: undefined };
    const ret: Node = { op: i, isCall: false, time: op.ret, match: undefined, prev: undefined, next: undefined };
    call.match = ret;
    events.push(call, ret);
  });
  // Calls before returns at equal times (only possible for two unknown returns at Infinity).
  events.sort((a, b) => a.time - b.time || (a.isCall === b.isCall ? a.op - b.op : a.isCall ? -1 : 1));
  const head: Node = { op: -1, isCall: false, time: -Infinity, match: undefined, prev: undefined, next: undefined };
  let prev = head;
  for (const e of events) {
    prev.next = e;
    e.prev = prev;
    prev = e;
  }
  return head;
}

function lift(n: Node): void {
  n.prev!.next = n.next;
  if (n.next) n.next.prev = n.prev;
  const m = n.match!;
  m.prev!.next = m.next;
  if (m.next) m.next.prev = m.prev;
}

function unlift(n: Node): void {
  const m = n.match!;
  m.prev!.next = m;
  if (m.next) m.next.prev = m;
  n.prev!.next = n;
  if (n.next) n.next.prev = n;
}

/** Checks one history (e.g. one key's operations). `budget` bounds the search steps (inconclusive past it). */
export function checkLinearizable<S, I, O>(model: Model<S, I, O>, ops: readonly LinOp<I, O>[], budget = 5_000_000): LinResult {
  for (const op of ops) if (!(op.ret > op.call)) throw new Error(`linearizability: op ${op.id} returns before its call`);
  const head = buildList(ops);
  const lin = new Bits(ops.length);
  const cache = new Set<string>();
  const stack: Array<{ node: Node; state: S }> = [];
  let state = model.init;
  let entry = head.next;
  let explored = 0;
  let longest: number[] = [];
  while (head.next !== undefined) {
    if (++explored > budget) return { ok: false, explored, inconclusive: true, longestPrefix: longest };
    if (entry === undefined) throw new Error('linearizability: ran off the event list');
    if (entry.isCall) {
      const op = ops[entry.op]!;
      const next = model.step(state, op.input, op.output);
      if (next !== undefined) {
        lin.set(entry.op);
        const key = `${lin.key()}|${model.key(next)}`;
        if (!cache.has(key)) {
          cache.add(key);
          stack.push({ node: entry, state });
          state = next;
          lift(entry);
          entry = head.next;
          continue;
        }
        lin.clear(entry.op);
      }
      entry = entry.next;
    } else {
      if (stack.length > longest.length) longest = stack.map((s) => ops[s.node.op]!.id);
      const top = stack.pop();
      if (top === undefined) return { ok: false, explored, inconclusive: false, longestPrefix: longest };
      state = top.state;
      lin.clear(top.node.op);
      unlift(top.node);
      entry = top.node.next;
    }
  }
  return { ok: true, explored };
}
