/**
 * The mutable state of one v2 store and the tree walks every operation shares.
 *
 * Invariants:
 * - `index` is the index of the last write; every successful write increments it by one
 *   and records exactly one event in `history`;
 * - the paths in `readOnly` (`/` and the namespaces `/0`, `/1`) can be neither written
 *   nor deleted;
 * - `ttl` holds exactly the attached nodes that have an `expireAt`.
 */
import { v2Fail, v2Ok, V2ErrorCode, type V2Result } from './errors.js';
import type { EventHistory } from './history.js';
import { childPath, segments } from './path.js';
import { isDir, newDir, type TreeNode } from './node.js';
import type { TtlHeap } from './ttl-heap.js';
import type { WatcherHub } from './watcher-hub.js';

export interface StoreState {
  root: TreeNode;
  index: bigint;
  readonly readOnly: ReadonlySet<string>;
  readonly ttl: TtlHeap;
  readonly history: EventHistory;
  readonly hub: WatcherHub;
}

/**
 * The node at a clean path. Errors: 104 (cause: the file met on the way) when a
 * component is a file, 100 (cause: the first missing path) when absent.
 */
export function lookup(s: StoreState, path: string): V2Result<TreeNode> {
  let cur = s.root;
  for (const name of segments(path)) {
    if (!cur.children) return v2Fail(V2ErrorCode.NotDir, cur.path, s.index);
    const next = cur.children.get(name);
    if (!next) return v2Fail(V2ErrorCode.KeyNotFound, childPath(cur.path, name), s.index);
    cur = next;
  }
  return v2Ok(cur);
}

/**
 * The directory at a clean path, creating missing directories (permanent, index + 1) on
 * the way. Error 104 (cause: the file) when a component is a file; directories created
 * before the failure cannot exist since a file's ancestors all exist.
 */
export function ensureDir(s: StoreState, path: string): V2Result<TreeNode> {
  let cur = s.root;
  for (const name of segments(path)) {
    const children = cur.children as Map<string, TreeNode>;
    let next = children.get(name);
    if (!next) {
      next = newDir(childPath(cur.path, name), s.index + 1n, cur, undefined);
      children.set(name, next);
    } else if (!isDir(next)) {
      return v2Fail(V2ErrorCode.NotDir, next.path, s.index);
    }
    cur = next;
  }
  return v2Ok(cur);
}

/**
 * Detaches a node (and, for a directory, everything below it), calling `onRemoved` for
 * each removed path, children before their directory. Errors, checked before anything
 * changes: 102 for a directory without `dir`, 108 for a non-empty directory without
 * `recursive`.
 */
export function removeNode(s: StoreState, n: TreeNode, dir: boolean, recursive: boolean, onRemoved: (path: string) => void): V2Result<void> {
  if (n.children) {
    if (!dir) return v2Fail(V2ErrorCode.NotFile, n.path, s.index);
    if (n.children.size > 0 && !recursive) return v2Fail(V2ErrorCode.DirNotEmpty, n.path, s.index);
  }
  detach(s, n, onRemoved);
  return v2Ok(undefined);
}

function detach(s: StoreState, n: TreeNode, onRemoved: (path: string) => void): void {
  if (n.children) {
    for (const child of [...n.children.values()]) detach(s, child, onRemoved);
  }
  const parent = n.parent;
  const name = n.path.slice(n.path.lastIndexOf('/') + 1);
  if (parent?.children?.get(name) === n) parent.children.delete(name);
  n.parent = undefined;
  onRemoved(n.path);
  if (n.expireAt !== undefined) s.ttl.remove(n);
}
