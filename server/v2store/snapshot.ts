/**
 * The persisted form of a v2 store (FORMAT.md): index, every node but the root in
 * pre-order (parents before children), and the event history. Watchers are not saved.
 *
 * Contract: `decodeSnapshot(encodeSnapshot(x))` rebuilds an equal tree and history;
 * malformed input is a broken invariant (the data is our own) and throws an Error naming
 * the offending field.
 */
import type { EventHistory } from './history.js';
import { newDir, newFile, type TreeNode } from './node.js';
import { splitPath } from './path.js';
import { V2Action, type V2Event, type V2Node } from './types.js';

export const SNAPSHOT_FORMAT = 'kvstore-v2store';
export const SNAPSHOT_VERSION = 1;

export interface NodeRecordJSON {
  readonly path: string;
  readonly dir?: true;
  readonly value?: string;
  readonly createdIndex: string;
  readonly modifiedIndex: string;
  readonly expireAt?: number;
}

export interface NodeJSON {
  readonly key: string;
  readonly value?: string;
  readonly dir?: true;
  readonly expiration?: number;
  readonly ttl?: number;
  readonly nodes?: readonly NodeJSON[];
  readonly modifiedIndex: string;
  readonly createdIndex: string;
}

export interface EventJSON {
  readonly action: V2Action;
  readonly node: NodeJSON;
  readonly prevNode?: NodeJSON;
  readonly etcdIndex: string;
  readonly refresh?: true;
}

export interface V2SnapshotJSON {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly version: typeof SNAPSHOT_VERSION;
  readonly index: string;
  readonly nodes: readonly NodeRecordJSON[];
  readonly history: readonly EventJSON[];
}

export function encodeSnapshot(root: TreeNode, index: bigint, history: EventHistory): V2SnapshotJSON {
  const nodes: NodeRecordJSON[] = [];
  const visit = (n: TreeNode): void => {
    for (const child of n.children?.values() ?? []) {
      nodes.push({
        path: child.path,
        ...(child.children ? { dir: true as const } : { value: child.value }),
        createdIndex: child.createdIndex.toString(),
        modifiedIndex: child.modifiedIndex.toString(),
        ...(child.expireAt !== undefined ? { expireAt: child.expireAt } : {}),
      });
      visit(child);
    }
  };
  visit(root);
  return { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, index: index.toString(), nodes, history: history.events().map(encodeEvent) };
}

export interface DecodedSnapshot {
  readonly index: bigint;
  readonly root: TreeNode;
  /** Attached nodes that have an expiry, for the TTL heap. */
  readonly expiring: readonly TreeNode[];
  readonly history: readonly V2Event[];
}

export function decodeSnapshot(json: unknown): DecodedSnapshot {
  const o = record(json, 'snapshot');
  if (o.format !== SNAPSHOT_FORMAT || o.version !== SNAPSHOT_VERSION) throw new Error(`v2 snapshot: unknown format ${String(o.format)}/${String(o.version)}`);
  const root = newDir('/', 0n, undefined, undefined);
  const byPath = new Map<string, TreeNode>([['/', root]]);
  const expiring: TreeNode[] = [];
  for (const [i, item] of array(o.nodes, 'nodes').entries()) {
    const r = record(item, `nodes[${i}]`);
    const path = str(r.path, `nodes[${i}].path`);
    const { dir, name } = splitPath(path);
    const parent = byPath.get(dir.length > 1 ? dir.slice(0, -1) : dir);
    if (!parent?.children || name === '' || parent.children.has(name)) throw new Error(`v2 snapshot: nodes[${i}] (${path}) has no parent directory before it or is a duplicate`);
    const expireAt = r.expireAt === undefined ? undefined : num(r.expireAt, `nodes[${i}].expireAt`);
    const created = big(r.createdIndex, `nodes[${i}].createdIndex`);
    const n = r.dir === true ? newDir(path, created, parent, expireAt) : newFile(path, str(r.value, `nodes[${i}].value`), created, parent, expireAt);
    n.modifiedIndex = big(r.modifiedIndex, `nodes[${i}].modifiedIndex`);
    parent.children.set(name, n);
    byPath.set(path, n);
    if (expireAt !== undefined) expiring.push(n);
  }
  const history = array(o.history, 'history').map((e, i) => decodeEvent(e, `history[${i}]`));
  return { index: big(o.index, 'index'), root, expiring, history };
}

export function encodeNode(n: V2Node): NodeJSON {
  return {
    key: n.key,
    ...(n.value !== undefined ? { value: n.value } : {}),
    ...(n.dir ? { dir: true as const } : {}),
    ...(n.expiration !== undefined ? { expiration: n.expiration } : {}),
    ...(n.ttl !== undefined ? { ttl: n.ttl } : {}),
    ...(n.nodes ? { nodes: n.nodes.map(encodeNode) } : {}),
    modifiedIndex: n.modifiedIndex.toString(),
    createdIndex: n.createdIndex.toString(),
  };
}

export function encodeEvent(e: V2Event): EventJSON {
  return {
    action: e.action,
    node: encodeNode(e.node),
    ...(e.prevNode ? { prevNode: encodeNode(e.prevNode) } : {}),
    etcdIndex: e.etcdIndex.toString(),
    ...(e.refresh ? { refresh: true as const } : {}),
  };
}

const ACTIONS = new Set<string>(Object.values(V2Action));

function decodeEvent(json: unknown, where: string): V2Event {
  const o = record(json, where);
  const action = str(o.action, `${where}.action`);
  if (!ACTIONS.has(action)) throw new Error(`v2 snapshot: ${where}.action ${action} is unknown`);
  return {
    action: action as V2Action,
    node: decodeNode(o.node, `${where}.node`),
    ...(o.prevNode !== undefined ? { prevNode: decodeNode(o.prevNode, `${where}.prevNode`) } : {}),
    etcdIndex: big(o.etcdIndex, `${where}.etcdIndex`),
    ...(o.refresh === true ? { refresh: true as const } : {}),
  };
}

function decodeNode(json: unknown, where: string): V2Node {
  const o = record(json, where);
  return {
    key: str(o.key, `${where}.key`),
    ...(o.value !== undefined ? { value: str(o.value, `${where}.value`) } : {}),
    ...(o.dir === true ? { dir: true as const } : {}),
    ...(o.expiration !== undefined ? { expiration: num(o.expiration, `${where}.expiration`) } : {}),
    ...(o.ttl !== undefined ? { ttl: num(o.ttl, `${where}.ttl`) } : {}),
    ...(o.nodes !== undefined ? { nodes: array(o.nodes, `${where}.nodes`).map((c, i) => decodeNode(c, `${where}.nodes[${i}]`)) } : {}),
    modifiedIndex: big(o.modifiedIndex, `${where}.modifiedIndex`),
    createdIndex: big(o.createdIndex, `${where}.createdIndex`),
  };
}

function record(x: unknown, where: string): Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) throw new Error(`v2 snapshot: ${where} is not an object`);
  return x as Record<string, unknown>;
}

function array(x: unknown, where: string): unknown[] {
  if (!Array.isArray(x)) throw new Error(`v2 snapshot: ${where} is not an array`);
  return x;
}

function str(x: unknown, where: string): string {
  if (typeof x !== 'string') throw new Error(`v2 snapshot: ${where} is not a string`);
  return x;
}

function num(x: unknown, where: string): number {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new Error(`v2 snapshot: ${where} is not a number`);
  return x;
}

function big(x: unknown, where: string): bigint {
  if (typeof x !== 'string' || !/^[0-9]+$/.test(x)) throw new Error(`v2 snapshot: ${where} is not a decimal index`);
  return BigInt(x);
}
