/**
 * Building one B+tree bottom-up from ascending elements: leaf pages are filled and appended
 * to the sink as they fill (an element bigger than a page gets a page with overflow pages of
 * its own), then `finish` writes the branch levels (one first key + page id per child) until
 * one root page is left, and returns the root's id. An empty tree is one empty leaf page.
 *
 * Memory: one leaf page of elements plus one (key, id) pair per leaf page written.
 * On a counting sink pages are not encoded, only their ids reserved (same ids as a real pass).
 * Invariant: keys strictly ascend (bytewise); `add` throws otherwise.
 */
import { ELEMENT_SIZE, MAX_KEY_SIZE, PAGE_HEADER_SIZE, type BranchElement, type LeafElement } from './layout.js';
import { branchSize, encodeBranch, encodeLeaf, leafSize, pageCount } from './page-encode.js';
import type { PageSink } from './page-sink.js';

export class TreeBuilder {
  private leaf: LeafElement[] = [];
  private leafBytes = PAGE_HEADER_SIZE;
  private readonly children: BranchElement[] = [];
  private last: Buffer | undefined;

  constructor(private readonly sink: PageSink) {}

  /**
   * Adds an element. Returns a promise only when a full leaf had to go to a sink that writes
   * asynchronously (a file); otherwise the element is in (no per-element promise to await).
   */
  add(key: Buffer, value: Buffer, flags = 0): Promise<void> | undefined {
    if (key.length > MAX_KEY_SIZE) throw new Error(`bbolt: key of ${key.length} bytes exceeds ${MAX_KEY_SIZE}`);
    if (this.last !== undefined && Buffer.compare(this.last, key) >= 0) {
      throw new Error(`bbolt: keys must strictly ascend (${this.last.toString('hex')} then ${key.toString('hex')})`);
    }
    this.last = key;
    const bytes = ELEMENT_SIZE + key.length + value.length;
    const written = this.leaf.length > 0 && (this.leafBytes + bytes > this.sink.pageSize || this.leaf.length === 0xffff) ? this.flushLeaf() : undefined;
    this.leaf.push({ flags, key, value });
    this.leafBytes += bytes;
    return written;
  }

  /** Writes what is left and the branch levels; returns the root page id. */
  async finish(): Promise<number> {
    if (this.leaf.length > 0 || this.children.length === 0) await this.flushLeaf();
    let level = this.children;
    while (level.length > 1) level = await this.writeLevel(level);
    const root = level[0];
    if (root === undefined) throw new Error('bbolt: tree without a root');
    return root.pgid;
  }

  /** Hands the leaf to the sink and starts a new one; a promise while a file write is pending. */
  private flushLeaf(): Promise<void> | undefined {
    const id = this.sink.next;
    let written: Promise<unknown> | undefined;
    if (this.sink.counting) this.sink.reserve(pageCount(leafSize(this.leaf), this.sink.pageSize));
    else written = this.sink.append(encodeLeaf(this.leaf, id, this.sink.pageSize));
    this.children.push({ key: this.leaf[0]?.key ?? Buffer.alloc(0), pgid: id });
    this.leaf = [];
    this.leafBytes = PAGE_HEADER_SIZE;
    return this.sink.buffered || written === undefined ? undefined : written.then(() => undefined);
  }

  private async writeLevel(children: readonly BranchElement[]): Promise<BranchElement[]> {
    const parents: BranchElement[] = [];
    let page: BranchElement[] = [];
    let bytes = PAGE_HEADER_SIZE;
    const emit = async (): Promise<void> => {
      const id = this.sink.next;
      if (this.sink.counting) this.sink.reserve(pageCount(branchSize(page), this.sink.pageSize));
      else await this.sink.append(encodeBranch(page, id, this.sink.pageSize));
      parents.push({ key: page[0]!.key, pgid: id });
      page = [];
      bytes = PAGE_HEADER_SIZE;
    };
    for (const child of children) {
      const grown = bytes + ELEMENT_SIZE + child.key.length;
      // at least two children per branch page, so every level shrinks
      if (page.length >= 2 && (grown > this.sink.pageSize || page.length === 0xffff)) await emit();
      page.push(child);
      bytes += ELEMENT_SIZE + child.key.length;
    }
    if (page.length > 0) await emit();
    return parents;
  }
}
