/**
 * A naive model of the MVCC store for property tests: every revision's full key→record map
 * and every revision's events, kept in plain arrays. Written from ETCD-FACTS §3, independently
 * of the store's index and range code.
 */
import type { Event, KeyValue } from '../../../proto/gen/etcd/kv.js';
import type { DomainError, Result } from '../../../server/errors/domain-error.js';
import type { RangeParams, RangeResult } from '../../../server/mvcc/types.js';

export type ModelOp =
  | { readonly type: 'put'; readonly key: Buffer; readonly value: Buffer; readonly lease: bigint }
  | { readonly type: 'del'; readonly key: Buffer; readonly rangeEnd: Buffer };

function inRange(k: Buffer, key: Buffer, rangeEnd: Buffer): boolean {
  if (rangeEnd.length === 0) return k.equals(key);
  if (rangeEnd.length === 1 && rangeEnd[0] === 0) return Buffer.compare(k, key) >= 0;
  return Buffer.compare(k, key) >= 0 && Buffer.compare(k, rangeEnd) < 0;
}

const cmpBig = (a: bigint, c: bigint): number => (a < c ? -1 : a > c ? 1 : 0);

export class Model {
  /** states[rev]: live records at revision rev (index 0 unused). */
  readonly states: Map<string, KeyValue>[] = [new Map(), new Map()];
  /** events[rev]: the events written at rev. */
  readonly events: Event[][] = [[], []];
  compactRevision = 0n;

  get current(): bigint {
    return BigInt(this.states.length - 1);
  }

  /** Applies one transaction; returns its events. */
  apply(ops: readonly ModelOp[]): Event[] {
    const rev = this.current + 1n;
    const next = new Map(this.states[this.states.length - 1]);
    const events: Event[] = [];
    for (const op of ops) {
      if (op.type === 'put') {
        const prev = next.get(op.key.toString('hex'));
        const kv: KeyValue = {
          key: op.key,
          value: op.value,
          lease: op.lease,
          modRevision: rev,
          createRevision: prev?.createRevision ?? rev,
          version: (prev?.version ?? 0n) + 1n,
        };
        next.set(op.key.toString('hex'), kv);
        events.push({ type: 0, kv, prevKv: prev });
      } else {
        const victims = [...next.values()].filter((kv) => inRange(kv.key, op.key, op.rangeEnd)).sort((x, y) => Buffer.compare(x.key, y.key));
        for (const prev of victims) {
          next.delete(prev.key.toString('hex'));
          events.push({ type: 1, kv: { key: prev.key, createRevision: 0n, modRevision: rev, version: 0n, value: Buffer.alloc(0), lease: 0n }, prevKv: prev });
        }
      }
    }
    if (events.length > 0) {
      this.states.push(next);
      this.events.push(events);
    }
    return events;
  }

  private check(revision: bigint): Result<bigint> {
    if (revision > this.current) return { ok: false, error: { kind: 'FutureRev', currentRevision: this.current } };
    const rev = revision <= 0n ? this.current : revision;
    if (rev < this.compactRevision) return { ok: false, error: { kind: 'Compacted', compactRevision: this.compactRevision } };
    return { ok: true, value: rev };
  }

  range(p: RangeParams): Result<RangeResult> {
    const rev = this.check(p.revision);
    if (!rev.ok) return rev;
    const all = [...this.states[Number(rev.value)]!.values()].filter((kv) => inRange(kv.key, p.key, p.rangeEnd)).sort((x, y) => Buffer.compare(x.key, y.key));
    const count = BigInt(all.length);
    if (p.countOnly) return { ok: true, value: { kvs: [], count, more: false } };
    const filtersOrSort = p.sortOrder !== 0 || p.minModRevision !== 0n || p.maxModRevision !== 0n || p.minCreateRevision !== 0n || p.maxCreateRevision !== 0n;
    let kvs = !filtersOrSort && p.limit > 0n ? all.slice(0, Number(p.limit) + 1) : all;
    kvs = kvs.filter(
      (kv) =>
        (p.minModRevision === 0n || kv.modRevision >= p.minModRevision) &&
        (p.maxModRevision === 0n || kv.modRevision <= p.maxModRevision) &&
        (p.minCreateRevision === 0n || kv.createRevision >= p.minCreateRevision) &&
        (p.maxCreateRevision === 0n || kv.createRevision <= p.maxCreateRevision),
    );
    const order = p.sortTarget !== 0 && p.sortOrder === 0 ? 1 : p.sortOrder;
    if (order !== 0) {
      const by = (x: KeyValue, y: KeyValue): number =>
        [Buffer.compare(x.key, y.key), cmpBig(x.version, y.version), cmpBig(x.createRevision, y.createRevision), cmpBig(x.modRevision, y.modRevision), Buffer.compare(x.value, y.value)][p.sortTarget]!;
      kvs = [...kvs].sort(order === 2 ? (x, y) => by(y, x) : by);
    }
    let more = false;
    if (p.limit > 0n && kvs.length > Number(p.limit)) {
      kvs = kvs.slice(0, Number(p.limit));
      more = true;
    }
    if (p.keysOnly) kvs = kvs.map((kv) => ({ ...kv, value: Buffer.alloc(0) }));
    return { ok: true, value: { kvs, count, more } };
  }

  history(from: bigint, to: bigint, key: Buffer, rangeEnd: Buffer): Result<Event[]> {
    if (from < this.compactRevision) return { ok: false, error: { kind: 'Compacted', compactRevision: this.compactRevision } };
    const out: Event[] = [];
    for (let rev = from; rev <= to && rev <= this.current; rev++) {
      if (rev < 1n) continue;
      const evs = this.events[Number(rev)]!;
      evs.forEach((e, i) => {
        if (!inRange(e.kv!.key, key, rangeEnd)) return;
        if (rev !== this.compactRevision) {
          out.push(e);
          return;
        }
        // At the compact revision only the newest version of each key survives, unless it is
        // a deletion, and its previous value is gone (ETCD-FACTS §3.6).
        const newest = !evs.slice(i + 1).some((later) => later.kv!.key.equals(e.kv!.key));
        if (newest && e.type === 0) out.push({ ...e, prevKv: undefined });
      });
    }
    return { ok: true, value: out };
  }

  compact(rev: bigint): DomainError | undefined {
    if (rev <= this.compactRevision) return { kind: 'Compacted', compactRevision: this.compactRevision };
    if (rev > this.current) return { kind: 'FutureRev', currentRevision: this.current };
    this.compactRevision = rev;
    return undefined;
  }

  liveCount(): number {
    return this.states[this.states.length - 1]!.size;
  }
}
