/**
 * Building one B+tree bottom-up from ascending elements: leaf pages are filled and encoded
 * into the PageOut as they fill (an element bigger than a page gets a page with overflow pages
 * of its own), then `finish` writes the branch levels (one first key + page id per child) until
 * one root page is left, and returns the root's id. An empty tree is one empty leaf page.
 * Where pages end follows the rules in tree-layout.ts (shared with the sized layout).
 *
 * No object per element: the pending leaf is three parallel arrays of references (key, where
 * the key starts in it, value), reused page after page; the first key of every page written is
 * copied into one growing byte arena (the branch levels' keys are ranges of it), so no source
 * buffer is kept once its page is encoded.
 * Invariant: keys strictly ascend (bytewise); `add` throws otherwise.
 */
import { ELEMENT_SIZE, MAX_KEY_SIZE, PAGE_HEADER_SIZE, PageFlag } from './layout.js';
import { pageCount, writeHeaderAt } from './page-encode.js';
import type { PageOut } from './page-out.js';
import { forEachBranchPage, leafIsFull } from './tree-layout.js';

/** Branch elements of one level: key i is `arena[keyAt[i] … keyAt[i] + keyLen[i]]`. */
interface Level {
  readonly keyAt: number[];
  readonly keyLen: number[];
  readonly ids: number[];
}

export class TreeBuilder {
  private readonly keys: Buffer[] = [];
  private readonly starts: number[] = [];
  private readonly values: Buffer[] = [];
  private count = 0;
  private bytes = PAGE_HEADER_SIZE;
  private last: Buffer | undefined;
  private lastStart = 0;
  private arena = Buffer.allocUnsafe(4096);
  private arenaUsed = 0;
  private readonly children: Level = { keyAt: [], keyLen: [], ids: [] };

  /** `flags`: the leaf element flags of every element (BUCKET_LEAF_FLAG for the root bucket). */
  constructor(
    private readonly out: PageOut,
    private readonly flags = 0,
  ) {}

  /** Adds the element `key[keyStart…]` → `value` (both only referenced until its page is encoded). */
  add(key: Buffer, keyStart: number, value: Buffer): void {
    const keyLen = key.length - keyStart;
    if (keyLen > MAX_KEY_SIZE) throw new Error(`bbolt: key of ${keyLen} bytes exceeds ${MAX_KEY_SIZE}`);
    const last = this.last;
    if (last !== undefined && !ascends(last, this.lastStart, key, keyStart)) {
      throw new Error(`bbolt: keys must strictly ascend (${last.subarray(this.lastStart).toString('hex')} then ${key.subarray(keyStart).toString('hex')})`);
    }
    this.last = key;
    this.lastStart = keyStart;
    const bytes = ELEMENT_SIZE + keyLen + value.length;
    if (leafIsFull(this.count, this.bytes, bytes, this.out.pageSize)) this.flushLeaf();
    const i = this.count++;
    this.keys[i] = key;
    this.starts[i] = keyStart;
    this.values[i] = value;
    this.bytes += bytes;
  }

  /** Writes what is left and the branch levels; returns the root page id. */
  async finish(): Promise<number> {
    if (this.count > 0 || this.children.ids.length === 0) this.flushLeaf();
    this.last = undefined;
    let level = this.children;
    while (level.ids.length > 1) {
      level = this.writeLevel(level);
      if (this.out.full) await this.out.flush();
    }
    const root = level.ids[0];
    if (root === undefined) throw new Error('bbolt: tree without a root');
    return root;
  }

  /** Encodes the pending leaf as the next page(s) and starts a new one. */
  private flushLeaf(): void {
    const out = this.out;
    const n = this.count;
    const pages = pageCount(this.bytes, out.pageSize);
    const id = out.next;
    const at = out.take(pages);
    const buf = out.buf;
    writeHeaderAt(buf, at, id, PageFlag.Leaf, n, pages - 1);
    let data = at + PAGE_HEADER_SIZE + n * ELEMENT_SIZE;
    for (let i = 0; i < n; i++) {
      const e = at + PAGE_HEADER_SIZE + i * ELEMENT_SIZE;
      const key = this.keys[i]!;
      const start = this.starts[i]!;
      const value = this.values[i]!;
      buf.writeUInt32LE(this.flags, e);
      buf.writeUInt32LE(data - e, e + 4);
      buf.writeUInt32LE(key.length - start, e + 8);
      buf.writeUInt32LE(value.length, e + 12);
      for (let j = start; j < key.length; j++) buf[data++] = key[j]!;
      buf.set(value, data);
      data += value.length;
    }
    buf.fill(0, data, at + pages * out.pageSize);
    const first = this.keys[0];
    this.addChild(this.children, first ?? Buffer.alloc(0), first === undefined ? 0 : this.starts[0]!, id);
    // Drop the references (the arrays are reused for the next page).
    for (let i = 0; i < n; i++) {
      this.keys[i] = EMPTY;
      this.values[i] = EMPTY;
    }
    this.count = 0;
    this.bytes = PAGE_HEADER_SIZE;
  }

  /** Copies the child's first key into the arena. */
  private addChild(level: Level, key: Buffer, keyStart: number, id: number): void {
    const len = key.length - keyStart;
    if (this.arenaUsed + len > this.arena.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.arena.length, this.arenaUsed + len));
      this.arena.copy(grown, 0, 0, this.arenaUsed);
      this.arena = grown;
    }
    key.copy(this.arena, this.arenaUsed, keyStart);
    level.keyAt.push(this.arenaUsed);
    level.keyLen.push(len);
    level.ids.push(id);
    this.arenaUsed += len;
  }

  /** Writes one branch level over `children`; returns the level above (keys share the arena). */
  private writeLevel(children: Level): Level {
    const parents: Level = { keyAt: [], keyLen: [], ids: [] };
    forEachBranchPage(children.keyLen, this.out.pageSize, (from, to, bytes) => this.encodeBranch(children, from, to, bytes, parents));
    return parents;
  }

  private encodeBranch(children: Level, from: number, to: number, bytes: number, parents: Level): void {
    const out = this.out;
    const pages = pageCount(bytes, out.pageSize);
    const id = out.next;
    const at = out.take(pages);
    const buf = out.buf;
    const n = to - from;
    writeHeaderAt(buf, at, id, PageFlag.Branch, n, pages - 1);
    let data = at + PAGE_HEADER_SIZE + n * ELEMENT_SIZE;
    for (let i = 0; i < n; i++) {
      const e = at + PAGE_HEADER_SIZE + i * ELEMENT_SIZE;
      const keyAt = children.keyAt[from + i]!;
      const keyLen = children.keyLen[from + i]!;
      const child = children.ids[from + i]!;
      buf.writeUInt32LE(data - e, e);
      buf.writeUInt32LE(keyLen, e + 4);
      buf.writeUInt32LE(child % 0x100000000, e + 8);
      buf.writeUInt32LE(Math.floor(child / 0x100000000), e + 12);
      this.arena.copy(buf, data, keyAt, keyAt + keyLen);
      data += keyLen;
    }
    buf.fill(0, data, at + pages * out.pageSize);
    parents.keyAt.push(children.keyAt[from]!);
    parents.keyLen.push(children.keyLen[from]!);
    parents.ids.push(id);
  }
}

const EMPTY = Buffer.alloc(0);

/** True when `b[bStart…]` sorts strictly after `a[aStart…]` (bytewise; a JS loop: keys are short). */
function ascends(a: Buffer, aStart: number, b: Buffer, bStart: number): boolean {
  const aLen = a.length - aStart;
  const bLen = b.length - bStart;
  const n = aLen < bLen ? aLen : bLen;
  for (let i = 0; i < n; i++) {
    const x = a[aStart + i]!;
    const y = b[bStart + i]!;
    if (x !== y) return x < y;
  }
  return aLen < bLen;
}
