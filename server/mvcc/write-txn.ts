/**
 * A write transaction (see WriteTxn in types.ts).
 *
 * Its changes live in a private overlay (key → new record, or null for deleted) until `end`,
 * so concurrent readers never see half a transaction. Each change gets the next sub revision.
 * `end` applies the changes to the index in order, hands the events to the unflushed map and
 * moves the store revision; a transaction that changed nothing leaves the revision alone.
 * Only one transaction may be open at a time (beginning a second one throws).
 * Records of keys the transaction did not write yet are read synchronously (unflushed map,
 * else `backend.getSync`), so a transaction runs without yielding between its operations.
 *
 * Ownership: key and value buffers passed in are kept by the store (callers must not mutate
 * them later); records and events handed out are shared and must not be mutated.
 */
import { Event_EventType, type Event, type KeyValue } from '../../proto/gen/etcd/kv.js';
import { ok, type Result } from '../errors/domain-error.js';
import { newStringMap, type SortedMap } from '../storage/sorted-map.js';
import type { KeyIndex } from './key-index.js';
import { keyBounds, type KeyBounds } from './key-range.js';
import { deletionKeyValue } from './kv-codec.js';
import { fetchLimit, finishRange, needsValues } from './range.js';
import { liveMeta, liveRecordAtHand, liveRecordSync, rangeAt, resolveRevision } from './read.js';
import { unreadPrev } from './unread-prev.js';
import type { StoreState } from './state.js';
import { keyName } from './tree-index.js';
import { takeEndedChange } from './ended-change.js';
import type { RangeParams, RangeResult, WriteTxn } from './types.js';

type Overlay = SortedMap<string, KeyValue | null>;

/** Overlay entries inside `bounds`, in key order. */
function overlayIn(overlay: Overlay, bounds: KeyBounds): [string, KeyValue | null][] {
  switch (bounds.kind) {
    case 'none':
      return [];
    case 'single': {
      const name = keyName(bounds.key);
      const v = overlay.get(name);
      return v === undefined ? [] : [[name, v]];
    }
    case 'interval': {
      const low = keyName(bounds.low);
      if (bounds.high !== undefined) return overlay.getRange(low, keyName(bounds.high), false);
      const max = overlay.maxKey();
      return max === undefined || max < low ? [] : overlay.getRange(low, max, true);
    }
  }
}

/** A live key as a transaction sees it: its record from the overlay, or its index entry. */
type Visible = { readonly kv: KeyValue; readonly ki?: undefined } | { readonly kv?: undefined; readonly ki: KeyIndex };

export class StoreWriteTxn implements WriteTxn {
  readonly revision: bigint;
  private readonly events: Event[] = [];
  /** Index form of each event's key. */
  private readonly names: string[] = [];
  /** Index entry of each event's key when known (saves a second lookup in `end`). */
  private readonly entries: (KeyIndex | undefined)[] = [];
  /** The events folded into a key → record map, built only when a read needs it. */
  private overlay: Overlay | undefined;
  private folded = 0;
  private ended = false;

  /** Use MvccStore.beginWrite(). */
  constructor(private readonly state: StoreState) {
    if (state.writing) throw new Error('mvcc: a write transaction is already open');
    state.writing = true;
    this.revision = state.currentRevision + 1n;
  }

  private checkOpen(): void {
    if (this.ended) throw new Error('mvcc: write transaction already ended');
  }

  /** The overlay with every event so far, or undefined while there is none. */
  private currentOverlay(): Overlay | undefined {
    const events = this.events;
    if (this.folded === events.length) return this.overlay;
    const overlay = (this.overlay ??= newStringMap<KeyValue | null>());
    for (; this.folded < events.length; this.folded++) {
      const e = events[this.folded];
      overlay.set(this.names[this.folded], e.type === Event_EventType.PUT ? e.kv! : null);
    }
    return overlay;
  }

  /** Calls `fn` with every live key in `bounds` as this transaction sees it, in key order. */
  private forEachVisible(bounds: KeyBounds, fn: (v: Visible) => void): void {
    const overlay = this.currentOverlay();
    if (overlay === undefined) {
      this.state.index.forEachInRange(bounds, (ki) => {
        if (ki.isLive) fn({ ki });
      });
      return;
    }
    const own = overlayIn(overlay, bounds);
    let i = 0;
    this.state.index.forEachInRange(bounds, (ki) => {
      while (i < own.length && own[i][0] < ki.key) {
        const v = own[i++][1];
        if (v !== null) fn({ kv: v });
      }
      if (i < own.length && own[i][0] === ki.key) {
        const v = own[i++][1];
        if (v !== null) fn({ kv: v });
        return;
      }
      if (ki.isLive) fn({ ki });
    });
    for (; i < own.length; i++) {
      const v = own[i][1];
      if (v !== null) fn({ kv: v });
    }
  }

  private recordOf(v: Visible): KeyValue {
    return v.kv ?? liveRecordSync(this.state, v.ki);
  }

  range(params: RangeParams): Promise<Result<RangeResult>> {
    this.checkOpen();
    const changed = this.events.length > 0;
    const rev = resolveRevision(this.state, params.revision, changed ? this.revision : this.state.currentRevision);
    if (!rev.ok) return Promise.resolve(rev);
    if (!changed || rev.value !== this.revision) return rangeAt(this.state, params, rev.value);
    const bounds = keyBounds(params.key, params.rangeEnd);
    const limit = fetchLimit(params);
    const max = params.countOnly ? 0 : limit === 0 ? Number.MAX_SAFE_INTEGER : limit;
    const values = needsValues(params);
    const kvs: KeyValue[] = [];
    let count = 0;
    this.forEachVisible(bounds, (v) => {
      if (count < max) kvs.push(v.kv ?? (values ? liveRecordSync(this.state, v.ki) : liveMeta(v.ki)));
      count++;
    });
    return Promise.resolve(ok(finishRange(params, kvs, count)));
  }

  get(key: Buffer): KeyValue | undefined {
    this.checkOpen();
    const own = this.currentOverlay()?.get(keyName(key));
    if (own !== undefined) return own ?? undefined;
    const ki = this.state.index.get(key);
    return ki?.isLive === true ? liveRecordSync(this.state, ki) : undefined;
  }

  put(key: Buffer, value: Buffer, lease: bigint): { readonly kv: KeyValue; readonly prev: KeyValue | undefined } {
    this.checkOpen();
    const name = keyName(key);
    let prev: KeyValue | undefined;
    let ki: KeyIndex | undefined;
    const own = this.currentOverlay()?.get(name);
    if (own !== undefined) {
      prev = own ?? undefined;
    } else {
      const found = this.state.index.getByName(name);
      // Only a live key's entry is sure to stay in the index until `end` (compaction keeps it).
      // The previous record is not read from the backend here (unread-prev.ts).
      if (found?.isLive === true) {
        prev = liveRecordAtHand(this.state, found) ?? unreadPrev(found);
        ki = found;
      }
    }
    const kv: KeyValue = {
      key,
      createRevision: prev === undefined ? this.revision : prev.createRevision,
      modRevision: this.revision,
      version: prev === undefined ? 1n : prev.version + 1n,
      value,
      lease,
    };
    this.events.push({ type: Event_EventType.PUT, kv, prevKv: prev });
    this.names.push(name);
    this.entries.push(ki);
    return { kv, prev };
  }

  deleteRange(key: Buffer, rangeEnd: Buffer): KeyValue[] {
    this.checkOpen();
    const deleted: KeyValue[] = [];
    const names: string[] = [];
    this.forEachVisible(keyBounds(key, rangeEnd), (v) => {
      deleted.push(this.recordOf(v));
      names.push(v.ki !== undefined ? v.ki.key : keyName(v.kv.key));
    });
    for (let i = 0; i < deleted.length; i++) {
      const prev = deleted[i];
      this.events.push({ type: Event_EventType.DELETE, kv: deletionKeyValue(prev.key, this.revision), prevKv: prev });
      this.names.push(names[i]);
      this.entries.push(undefined);
    }
    return deleted;
  }

  end(): { readonly revision: bigint; readonly events: Event[] } {
    this.checkOpen();
    this.ended = true;
    const state = this.state;
    state.writing = false;
    const events = this.events;
    if (events.length === 0) return { revision: state.currentRevision, events };
    const main = this.revision;
    takeEndedChange(state, main, events, this.names, this.entries);
    state.feed?.changed(main, events);
    return { revision: main, events };
  }
}
