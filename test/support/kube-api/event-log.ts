/**
 * The change history of the object store, as watches see it: every change is one event with its
 * resourceVersion, kept up to a bound (older events are dropped and watches from before them get
 * 410), and delivered synchronously, in order, to subscribers. What a watch with a selection sees
 * of an event is `asSeenBy` (pure): an object entering the selection is ADDED, leaving it DELETED.
 */
import { typeKey, type ResourceType } from './resources.js';
import type { Matcher } from './selectors.js';
import type { KubeObject } from './types.js';

/** One change, as history and listeners see it. */
export interface StoreEvent {
  readonly rv: bigint;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly typeKey: string;
  readonly object: KubeObject;
  /** MODIFIED: the object before the change (a selective watch turns it into ADDED or DELETED). */
  readonly previous?: KubeObject;
}

/** What a watch or list selects. */
export interface Selection {
  readonly type: ResourceType;
  /** undefined: all namespaces. */
  readonly namespace: string | undefined;
  readonly match: Matcher;
}

/** true when the object is in the selection's namespace and matches it. */
export function selects(sel: Selection, o: KubeObject): boolean {
  return (sel.namespace === undefined || o.metadata.namespace === sel.namespace) && sel.match(o);
}

/** The event as a selective watch sees it; undefined when not seen at all. */
export function asSeenBy(sel: Selection, e: StoreEvent): StoreEvent | undefined {
  if (e.typeKey !== typeKey(sel.type)) return undefined;
  const now = selects(sel, e.object);
  if (e.type !== 'MODIFIED' || e.previous === undefined) return now ? e : undefined;
  const before = selects(sel, e.previous);
  if (now && before) return e;
  if (now) return { ...e, type: 'ADDED' };
  if (before) return { ...e, type: 'DELETED' };
  return undefined;
}

export class EventLog {
  private history: StoreEvent[] = [];
  /** Every event after this resourceVersion is kept; watches from before it get 410. */
  private compacted = 0n;
  private readonly listeners = new Set<(e: StoreEvent) => void>();

  constructor(private readonly limit: number) {}

  /** The oldest resourceVersion a watch may start from. */
  oldestWatchable(): bigint {
    return this.compacted;
  }

  /** Events after `fromRv`, or undefined when some of them were dropped. */
  since(fromRv: bigint): StoreEvent[] | undefined {
    return fromRv < this.compacted ? undefined : this.history.filter((e) => e.rv > fromRv);
  }

  /** Drops everything up to `rv`. */
  compact(rv: bigint): void {
    this.history = this.history.filter((e) => e.rv > rv);
    if (rv > this.compacted) this.compacted = rv;
  }

  /** Calls `fn` after every appended event; answers the unsubscribe function. */
  subscribe(fn: (e: StoreEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Records an event (dropping the oldest beyond the bound) and delivers it. */
  append(e: StoreEvent): void {
    this.history.push(e);
    if (this.history.length > this.limit) {
      const dropped = this.history.splice(0, this.history.length - this.limit);
      this.compacted = dropped[dropped.length - 1]?.rv ?? this.compacted;
    }
    for (const fn of [...this.listeners]) fn(e);
  }
}
