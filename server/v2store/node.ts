/**
 * The store's internal tree: mutable nodes owned by one V2Store, and their external view.
 *
 * Invariants:
 * - a node is a directory iff `children` is defined; files carry `value`;
 * - `path` is the clean absolute path, `parent.children.get(name) === node` while attached;
 * - `expireAt` undefined means permanent; `heapIndex` is the slot in the store's TTL heap
 *   (-1 when not in it) and is managed by ttl-heap.ts only.
 * Nothing outside server/v2store sees these objects: callers get `V2Node` copies.
 */
import { compareKeys, splitPath } from './path.js';
import type { V2Node } from './types.js';

export interface TreeNode {
  readonly path: string;
  createdIndex: bigint;
  modifiedIndex: bigint;
  expireAt: number | undefined;
  value: string;
  readonly children: Map<string, TreeNode> | undefined;
  parent: TreeNode | undefined;
  heapIndex: number;
}

export function newFile(path: string, value: string, index: bigint, parent: TreeNode | undefined, expireAt: number | undefined): TreeNode {
  return { path, createdIndex: index, modifiedIndex: index, expireAt, value, children: undefined, parent, heapIndex: -1 };
}

export function newDir(path: string, index: bigint, parent: TreeNode | undefined, expireAt: number | undefined): TreeNode {
  return { path, createdIndex: index, modifiedIndex: index, expireAt, value: '', children: new Map(), parent, heapIndex: -1 };
}

export const isDir = (n: TreeNode): boolean => n.children !== undefined;

/** Hidden nodes (name starting with `_`) are left out of directory listings. */
export const isHiddenNode = (n: TreeNode): boolean => splitPath(n.path).name.startsWith('_');

/**
 * Remaining TTL in whole seconds, as etcd computes it: ceil of the remaining time while
 * positive, truncated towards zero once due (so 0 or negative; 0 is left off the wire).
 */
export function ttlSeconds(expireAt: number, nowMs: number): number {
  const left = expireAt - nowMs;
  const s = left > 0 ? Math.ceil(left / 1000) : Math.trunc(left / 1000);
  return s === 0 ? 0 : s;
}

/** `{ expiration, ttl }` of a node with a TTL (ttl left out when 0), `{}` for a permanent one. */
export function expiryOf(expireAt: number | undefined, nowMs: number): { expiration?: number; ttl?: number } {
  if (expireAt === undefined) return {};
  const ttl = ttlSeconds(expireAt, nowMs);
  return ttl === 0 ? { expiration: expireAt } : { expiration: expireAt, ttl };
}

/**
 * External view of a node. Directories list their (non-hidden) children only when
 * `recursive` (nested directories then list theirs too); `sorted` orders children by key.
 */
export function repr(n: TreeNode, recursive: boolean, sorted: boolean, nowMs: number): V2Node {
  const expiry = expiryOf(n.expireAt, nowMs);
  const indices = { modifiedIndex: n.modifiedIndex, createdIndex: n.createdIndex };
  if (!n.children) return { key: n.path, value: n.value, ...expiry, ...indices };
  if (!recursive) return { key: n.path, dir: true, ...expiry, ...indices };
  return { key: n.path, dir: true, ...expiry, ...listing(n, true, sorted, nowMs), ...indices };
}

/** `{ nodes }` of a directory's visible children, or `{}` when there are none. */
export function listing(dir: TreeNode, recursive: boolean, sorted: boolean, nowMs: number): { nodes?: V2Node[] } {
  const nodes: V2Node[] = [];
  for (const child of dir.children?.values() ?? []) {
    if (!isHiddenNode(child)) nodes.push(repr(child, recursive, sorted, nowMs));
  }
  if (sorted) nodes.sort((a, b) => compareKeys(a.key, b.key));
  return nodes.length === 0 ? {} : { nodes };
}

/** The prevNode / get view of a node: files with value, directories without children. */
export function flatRepr(n: TreeNode, nowMs: number): V2Node {
  return repr(n, false, false, nowMs);
}

export const CompareResult = { Match: 0, IndexNotMatch: 1, ValueNotMatch: 2, NotMatch: 3 } as const;
export type CompareResult = (typeof CompareResult)[keyof typeof CompareResult];

/** prevValue '' and prevIndex 0 mean "not compared". */
export function compareNode(n: TreeNode, prevValue: string, prevIndex: bigint): CompareResult {
  const indexMatch = prevIndex === 0n || n.modifiedIndex === prevIndex;
  const valueMatch = prevValue === '' || n.value === prevValue;
  if (indexMatch && valueMatch) return CompareResult.Match;
  if (indexMatch) return CompareResult.ValueNotMatch;
  if (valueMatch) return CompareResult.IndexNotMatch;
  return CompareResult.NotMatch;
}

/** The `cause` of a failed comparison, e.g. `[nope != baz] [1 != 5]`. */
export function compareFailCause(n: TreeNode, which: CompareResult, prevValue: string, prevIndex: bigint): string {
  switch (which) {
    case CompareResult.IndexNotMatch:
      return `[${prevIndex} != ${n.modifiedIndex}]`;
    case CompareResult.ValueNotMatch:
      return `[${prevValue} != ${n.value}]`;
    default:
      return `[${prevValue} != ${n.value}] [${prevIndex} != ${n.modifiedIndex}]`;
  }
}
