/**
 * Where a B+tree's pages end, from element sizes alone. Pure. `TreeBuilder` (which encodes the
 * pages) and `sizedTreeLayout` (which only counts them, for a file laid out before its data is
 * read: the snapshot stream) take their page boundaries from the same two rules, so a tree
 * built from entries with given sizes has exactly the pages its sized layout predicted.
 *
 * - A leaf takes elements while they fit one page, up to 0xFFFF of them; an element that does
 *   not fit starts the next leaf (a first element bigger than a page gets overflow pages).
 * - A branch level groups its children (a first key and a page id each) the same way, with at
 *   least two children per branch page so that every level shrinks, until one root is left.
 */
import { ELEMENT_SIZE, PAGE_HEADER_SIZE } from './layout.js';
import { pageCount } from './page-encode.js';

/** True when an element of `elementBytes` starts a new leaf after a pending one of `count` elements and `bytes` bytes. */
export function leafIsFull(count: number, bytes: number, elementBytes: number, pageSize: number): boolean {
  return count > 0 && (bytes + elementBytes > pageSize || count === 0xffff);
}

/**
 * The branch pages over children whose first keys have lengths `keyLen`: `page(from, to,
 * bytes)` for each, in order (children `from … to - 1`, encoded size `bytes`).
 */
export function forEachBranchPage(keyLen: readonly number[], pageSize: number, page: (from: number, to: number, bytes: number) => void): void {
  let from = 0;
  let bytes = PAGE_HEADER_SIZE;
  const total = keyLen.length;
  for (let i = 0; i < total; i++) {
    const grown = bytes + ELEMENT_SIZE + keyLen[i]!;
    if (i - from >= 2 && (grown > pageSize || i - from === 0xffff)) {
      page(from, i, bytes);
      from = i;
      bytes = PAGE_HEADER_SIZE;
    }
    bytes += ELEMENT_SIZE + keyLen[i]!;
  }
  if (total > from) page(from, total, bytes);
}

/** Element sizes of a bucket, in key order (e.g. what a backend's record ledger knows). */
export interface ElementSizes {
  readonly length: number;
  keyLength(i: number): number;
  valueLength(i: number): number;
}

export interface SizedTree {
  /** Pages the tree takes. */
  readonly pages: number;
  /** Its root page's id (pages are numbered from `firstId` on, leaves first, then each branch level). */
  readonly root: number;
}

/** The pages of the tree `TreeBuilder` builds from elements of these sizes, numbered from `firstId`. */
export function sizedTreeLayout(sizes: ElementSizes, pageSize: number, firstId: number): SizedTree {
  let next = firstId;
  let children: number[] = [];
  let root = firstId;
  let count = 0;
  let bytes = PAGE_HEADER_SIZE;
  let firstKey = 0;
  const closeLeaf = (): void => {
    root = next;
    next += pageCount(bytes, pageSize);
    children.push(firstKey);
    count = 0;
    bytes = PAGE_HEADER_SIZE;
  };
  for (let i = 0; i < sizes.length; i++) {
    const keyLen = sizes.keyLength(i);
    const element = ELEMENT_SIZE + keyLen + sizes.valueLength(i);
    if (leafIsFull(count, bytes, element, pageSize)) closeLeaf();
    if (count === 0) firstKey = keyLen;
    count++;
    bytes += element;
  }
  if (count > 0 || children.length === 0) closeLeaf();
  while (children.length > 1) {
    const parents: number[] = [];
    const level = children;
    forEachBranchPage(level, pageSize, (from, _to, pageBytes) => {
      root = next;
      next += pageCount(pageBytes, pageSize);
      parents.push(level[from]!);
    });
    children = parents;
  }
  return { pages: next - firstId, root };
}
