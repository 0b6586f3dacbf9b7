/**
 * Test double for the watch hub's history port: an in-memory event log with etcd's revision
 * rules (fresh store at revision 1, one revision per write that changes something, delete
 * events carry only key and mod_revision, prevKv set when a previous value existed) and a
 * compaction mark below which history reads fail with `Compacted`.
 *
 * `all` keeps every event ever written (compaction only refuses reads), so tests can compute
 * what each watcher should have received.
 */
import { Event_EventType, type Event, type KeyValue } from '../../../proto/gen/etcd/kv.js';
import { fail, ok, type Result } from '../../../server/errors/domain-error.js';

export type Op = { readonly put: string; readonly value: string } | { readonly del: string };

export interface Write {
  readonly revision: bigint;
  readonly events: Event[];
}

const b = (s: string): Buffer => Buffer.from(s, 'latin1');

/** etcd range membership over latin1 strings (empty key = "\x00" for watches is the caller's job). */
export function rangeHas(key: string, rangeEnd: string, k: string): boolean {
  if (rangeEnd === '') return k === key;
  if (rangeEnd === '\x00') return k >= key;
  return k >= key && k < rangeEnd;
}

export class FakeLog {
  revision = 1n;
  compactRevision = 0n;
  readonly all: Event[] = [];
  private readonly kvs = new Map<string, KeyValue>();

  /** Applies one write transaction; undefined when it changed nothing (no revision bump). */
  write(ops: readonly Op[]): Write | undefined {
    const rev = this.revision + 1n;
    const events: Event[] = [];
    for (const op of ops) {
      if ('put' in op) {
        const prev = this.kvs.get(op.put);
        const kv: KeyValue = {
          key: b(op.put),
          createRevision: prev ? prev.createRevision : rev,
          modRevision: rev,
          version: prev ? prev.version + 1n : 1n,
          value: b(op.value),
          lease: 0n,
        };
        this.kvs.set(op.put, kv);
        events.push({ type: Event_EventType.PUT, kv, prevKv: prev });
      } else {
        const prev = this.kvs.get(op.del);
        if (!prev) continue;
        this.kvs.delete(op.del);
        const kv: KeyValue = { key: b(op.del), createRevision: 0n, modRevision: rev, version: 0n, value: Buffer.alloc(0), lease: 0n };
        events.push({ type: Event_EventType.DELETE, kv, prevKv: prev });
      }
    }
    if (events.length === 0) return undefined;
    this.revision = rev;
    this.all.push(...events);
    return { revision: rev, events };
  }

  compact(revision: bigint): void {
    if (revision > this.compactRevision) this.compactRevision = revision;
  }

  history(from: bigint, to: bigint, key: Buffer, rangeEnd: Buffer): Result<Event[]> {
    if (from < this.compactRevision) return fail({ kind: 'Compacted', compactRevision: this.compactRevision });
    const k = key.toString('latin1');
    const e = rangeEnd.toString('latin1');
    return ok(
      this.all.filter((ev) => {
        const kv = ev.kv as KeyValue;
        return kv.modRevision >= from && kv.modRevision <= to && rangeHas(k, e, kv.key.toString('latin1'));
      }),
    );
  }
}

/**
 * A history port whose reads stay pending until the test resolves them, so notify(),
 * compaction and cancels can be interleaved with in-flight catch-up reads. A read is
 * evaluated when it is resolved (the log may have moved on since the call).
 */
export class ManualHistory {
  private readonly pending: Array<() => void> = [];
  calls = 0;

  constructor(private readonly log: FakeLog) {}

  get pendingCount(): number {
    return this.pending.length;
  }

  readonly history = (from: bigint, to: bigint, key: Buffer, rangeEnd: Buffer): Promise<Result<Event[]>> => {
    this.calls++;
    return new Promise((resolve) => {
      this.pending.push(() => resolve(this.log.history(from, to, key, rangeEnd)));
    });
  };

  /** Resolves the i-th pending read (modulo the number pending), then lets the hub react. */
  async resolveOne(i: number): Promise<void> {
    if (this.pending.length === 0) return;
    const [run] = this.pending.splice(i % this.pending.length, 1);
    run?.();
    await turn();
  }

  /** Resolves reads until none is pending. */
  async settle(): Promise<void> {
    await turn();
    for (let guard = 0; this.pending.length > 0 && guard < 100_000; guard++) {
      for (const run of this.pending.splice(0)) run();
      await turn();
    }
  }
}

/** Lets pending promise callbacks run. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
