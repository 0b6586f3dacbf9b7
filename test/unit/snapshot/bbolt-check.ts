/**
 * A test-side structural check of a bbolt file held in memory, in the spirit of bbolt's own
 * `tx.Check`: both meta pages valid; every page below the high-water mark is reached exactly once
 * (meta pages, the free list with the pages it lists, every tree page with its overflow; when
 * no free list is stored, unreached pages count as free);
 * branch keys equal the first key of their child; keys ascend within and across pages.
 * Returns the depth of every bucket's tree (0 for inline buckets).
 */
import {
  BUCKET_HEADER_SIZE,
  BUCKET_LEAF_FLAG,
  PAGE_HEADER_SIZE,
  PageFlag,
  branchElements,
  decodeBucketHeader,
  decodeMeta,
  leafElements,
  readPageHeader,
} from '../../../server/snapshot/bbolt/layout.js';

export interface CheckResult {
  readonly depths: ReadonlyMap<string, number>;
  readonly pageSize: number;
  readonly highWater: number;
}

export function checkBolt(file: Buffer): CheckResult {
  const m0 = decodeMeta(file, PAGE_HEADER_SIZE);
  if (m0.kind !== 'Ok') throw new Error(`meta 0: ${m0.reason}`);
  const { pageSize } = m0.meta;
  const m1 = decodeMeta(file, pageSize + PAGE_HEADER_SIZE);
  if (m1.kind !== 'Ok') throw new Error(`meta 1: ${m1.reason}`);
  const meta = m1.meta.txid > m0.meta.txid ? m1.meta : m0.meta;
  if (meta.pageSize !== pageSize) throw new Error('meta pages disagree on the page size');
  const seen = new Uint8Array(meta.pgid);
  const mark = (id: number, pages: number, what: string): void => {
    for (let p = id; p < id + pages; p++) {
      if (p >= meta.pgid) throw new Error(`${what}: page ${p} at or above the high-water mark ${meta.pgid}`);
      if (seen[p] !== 0) throw new Error(`${what}: page ${p} reached twice`);
      seen[p] = 1;
    }
  };
  mark(0, 1, 'meta');
  mark(1, 1, 'meta');
  const page = (id: number): Buffer => {
    const h = readPageHeader(file, id * pageSize);
    if (h.id !== id) throw new Error(`page ${id} carries id ${h.id}`);
    return file.subarray(id * pageSize, (id + 1 + h.overflow) * pageSize);
  };
  if (meta.freelist !== 0xffffffffffffffffn) {
    const id = Number(meta.freelist);
    const fl = page(id);
    const h = readPageHeader(fl);
    if (h.flags !== PageFlag.Freelist) throw new Error('free list page has the wrong flags');
    mark(id, h.overflow + 1, 'freelist');
    let count = h.count;
    let at = PAGE_HEADER_SIZE;
    if (count === 0xffff) {
      count = Number(fl.readBigUInt64LE(at));
      at += 8;
    }
    for (let i = 0; i < count; i++) mark(Number(fl.readBigUInt64LE(at + 8 * i)), 1, 'free');
  }
  // walks a tree; returns [depth, leaf elements in order]
  const walk = (id: number, lower: Buffer | undefined, what: string): [number, { flags: number; key: Buffer; value: Buffer }[]] => {
    const buf = page(id);
    const h = readPageHeader(buf);
    mark(id, h.overflow + 1, what);
    if (h.flags === PageFlag.Leaf) {
      const els = leafElements(buf, 0, h.count);
      if (lower !== undefined && (els.length === 0 || !els[0].key.equals(lower))) throw new Error(`${what}: branch key differs from child ${id}'s first key`);
      return [1, els];
    }
    if (h.flags !== PageFlag.Branch) throw new Error(`${what}: page ${id} has flags ${h.flags}`);
    const kids = branchElements(buf, h.count);
    if (kids.length === 0) throw new Error(`${what}: empty branch page ${id}`);
    if (lower !== undefined && !kids[0].key.equals(lower)) throw new Error(`${what}: branch key differs from child ${id}'s first key`);
    let depth = 0;
    const all: { flags: number; key: Buffer; value: Buffer }[] = [];
    for (const k of kids) {
      const [d, els] = walk(k.pgid, k.key, what);
      if (depth !== 0 && d !== depth) throw new Error(`${what}: unbalanced tree under page ${id}`);
      depth = d;
      all.push(...els);
    }
    return [depth + 1, all];
  };
  const ascending = (els: readonly { key: Buffer }[], what: string): void => {
    for (let i = 1; i < els.length; i++) if (Buffer.compare(els[i - 1].key, els[i].key) >= 0) throw new Error(`${what}: keys out of order at ${i}`);
  };
  const depths = new Map<string, number>();
  const [, buckets] = walk(meta.root, undefined, 'root bucket');
  ascending(buckets, 'root bucket');
  for (const b of buckets) {
    if ((b.flags & BUCKET_LEAF_FLAG) === 0) throw new Error('a plain key in the root bucket');
    const name = b.key.toString('utf8');
    const { root } = decodeBucketHeader(b.value);
    if (root === 0) {
      const inline = b.value.subarray(BUCKET_HEADER_SIZE);
      const h = readPageHeader(inline);
      if (h.flags !== PageFlag.Leaf) throw new Error(`inline bucket ${name} is not a leaf`);
      ascending(leafElements(inline, 0, h.count), name);
      depths.set(name, 0);
    } else {
      const [d, els] = walk(root, undefined, name);
      ascending(els, name);
      depths.set(name, d);
    }
  }
  const unreached = seen.findIndex((s) => s === 0);
  // without a stored free list (etcd's NoFreelistSync), unreached pages are the free ones
  if (unreached >= 0 && meta.freelist !== 0xffffffffffffffffn) throw new Error(`page ${unreached} is neither reachable nor free`);
  return { depths, pageSize, highWater: meta.pgid };
}
