/**
 * The front end's side of a read replica, minus the thread, for read-replica.test.ts: a
 * queue of the records a store's feed sends (through the real wire encoding,
 * frontend/replica-records.ts) and the replica they build, applied in order as
 * replica-host.ts does, each payload overwritten once applied as a reused turn buffer would
 * be. Each change's events, with the previous records the replica reads for them, are checked
 * against the store's. Also how records and events are shown in assertions.
 */
import assert from 'node:assert/strict';
import type { Event, KeyValue } from '../../../proto/gen/etcd/kv.js';
import { decodeChange, decodeRevision, encodeChange, encodeRevision } from '../../../server/frontend/replica-records.js';
import { ReadReplica } from '../../../server/mvcc/read-replica.js';
import type { StoreFeed } from '../../../server/mvcc/store-feed.js';
import type { MvccStoreImpl } from '../../../server/mvcc/store.js';
import type { Backend } from '../../../server/storage/backend.js';

/** A value as text; a long one by its length and edges (`sameAnswers` compares long values whole). */
export function showValue(v: Buffer): string {
  return v.length <= 48 ? v.toString('hex') : `${v.length}B:${v.subarray(0, 16).toString('hex')}…${v.subarray(-8).toString('hex')}`;
}

export function showKv(kv: KeyValue): string {
  return `${kv.key.toString('hex')}=${showValue(kv.value)}@${kv.createRevision}/${kv.modRevision}/${kv.version}+${kv.lease}`;
}

/** Events as text, previous records included. */
export function showEvents(events: readonly Event[]): string {
  return events.map((e) => `${e.type}:${showKv(e.kv!)}<${e.prevKv === undefined ? '-' : showKv(e.prevKv)}`).join(' ');
}

/** What the store's feed sends, as the bytes replica-host.ts would receive. */
type Wire =
  | { readonly kind: 'image'; readonly index: Buffer; readonly holds: readonly Buffer[] }
  | { readonly kind: 'change' | 'release' | 'compact'; readonly payload: Buffer };

/** The front end's side, minus the thread: a queue of encoded records and the replica they build. */
export class Follower {
  replica!: ReadReplica;
  private readonly queue: Wire[] = [];
  readonly seen = { images: 0, holds: 0, goneHeld: 0, changes: 0, releases: 0, compactions: 0, prevCompared: 0 };
  /** Each change's events with their previous records, as the store's watch hub reads them when the change ends. */
  private readonly storeEvents = new Map<bigint, string>();

  readonly feed: StoreFeed = {
    changed: (main, events) => {
      this.storeEvents.set(main, showEvents(this.store.readPrev(events)));
      this.queue.push({ kind: 'change', payload: encodeChange(main, events) });
    },
    released: (main) => this.queue.push({ kind: 'release', payload: encodeRevision(main) }),
    compacted: (revision) => this.queue.push({ kind: 'compact', payload: encodeRevision(revision) }),
    reloaded: () => this.queue.push(this.image()),
  };

  constructor(
    private readonly store: MvccStoreImpl,
    private readonly backend: Backend,
  ) {
    this.queue.push(this.image());
    store.setFeed(this.feed);
    this.deliver();
  }

  /** The image as replica-feed.ts sends it: the index, then one hold per pending change. */
  private image(): Wire {
    const { index, pending } = this.store.replicaImage();
    return { kind: 'image', index, holds: pending.map(([main, group]) => encodeChange(main, group)) };
  }

  /** A new image now (as after a restart of the front end's feed). */
  restart(): void {
    this.queue.push(this.image());
  }

  get lagging(): boolean {
    return this.queue.length > 0;
  }

  /** Records are queued that a read at the replica's own revision cannot do without. */
  get compactionOrImageQueued(): boolean {
    return this.queue.some((w) => w.kind === 'compact' || w.kind === 'image');
  }

  /**
   * Applies every queued record in order, then overwrites its bytes (the turn buffer is reused).
   * Each change's events, with the previous records the replica reads for them, must be the
   * store's — unless a compaction is delivered in the same batch: its backend pass may have
   * removed a previous record before the replica read it (it then leaves prevKv out, as etcd
   * does when it reads a compacted previous value at send time).
   */
  deliver(): void {
    const batch = this.queue.splice(0);
    const comparePrev = !batch.some((w) => w.kind === 'compact');
    for (const w of batch) {
      switch (w.kind) {
        case 'image': {
          this.seen.images++;
          this.replica = ReadReplica.fromImage(this.backend, w.index);
          w.index.fill(0xee);
          let last = 0n;
          for (const h of w.holds) {
            const { main, events } = decodeChange(h);
            assert.ok(main > last, `holds in revision order: ${main} after ${last}`);
            last = main;
            this.seen.holds++;
            this.seen.goneHeld += events.filter((e) => e === undefined).length;
            this.replica.hold(main, events);
            h.fill(0xee);
          }
          break;
        }
        case 'change': {
          const { main, events } = decodeChange(w.payload);
          assert.ok(
            events.every((e) => e !== undefined),
            `a change of the feed has no gone event (${main})`,
          );
          this.seen.changes++;
          this.replica.applyChange(main, events as Event[], true);
          const theirs = this.storeEvents.get(main);
          this.storeEvents.delete(main);
          if (comparePrev) {
            assert.equal(showEvents(this.replica.readPrev(events as Event[])), theirs, `events of change ${main} with their previous records`);
            this.seen.prevCompared++;
          }
          break;
        }
        case 'release':
          this.seen.releases++;
          this.replica.release(decodeRevision(w.payload));
          break;
        case 'compact':
          this.seen.compactions++;
          this.replica.compact(decodeRevision(w.payload));
          break;
      }
      if (w.kind !== 'image') w.payload.fill(0xee);
    }
  }
}

