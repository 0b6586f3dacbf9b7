/**
 * WatchHub: etcd's watch semantics (ETCD-FACTS §3.8) over a history port, for every watch
 * stream of one member.
 *
 * Driven from outside, never by its own timers:
 * - openWatch(send, flow?) one session per client stream (request / close);
 * - notify(rev, evs) after each applied write, revisions strictly increasing;
 * - compacted(rev)   after each compaction;
 * - progressTick()   on the progress-notify interval.
 *
 * The hub revision (`rev`) is the revision through which events exist: the last notified one,
 * or the store's current revision when that is found ahead (start-up, snapshot restore, a
 * late notify). Finding the store ahead is treated as a gap: synced watchers drop to unsynced
 * and take the skipped revisions from history, and a notify at or below `rev` is ignored, so
 * no event is lost or repeated whatever the order of calls.
 *
 * Guarantees per watcher: created reply first (in request order), then every matching event
 * from its start revision exactly once in revision order (one response per revision when
 * live), ending with a cancel (client cancel, compaction, or stream close which sends nothing).
 */
import type { Event } from '../../proto/gen/etcd/kv.js';
import type { WatchCreateRequest, WatchRequest } from '../../proto/gen/etcd/rpc.js';
import type { WatchService, WatchSession } from '../api/services.js';
import { CatchUp } from './catch-up.js';
import { fragmentResponse } from './fragment.js';
import { WatcherGroups } from './groups.js';
import { keyString, watchRange } from './key-range.js';
import * as r from './responses.js';
import { WatchStream } from './stream.js';
import type { WatchFlow, WatchHubDeps, WatchSend, WatchStats } from './types.js';
import { viewEvents, WatcherState, type Watcher, type WatcherOptions } from './watcher.js';

const NOPUT = 0;
const NODELETE = 1;

export class WatchHub implements WatchService {
  private readonly streams = new Set<WatchStream>();
  private readonly groups = new WatcherGroups();
  private readonly catchUp: CatchUp;
  private readonly maxPendingEvents: number;
  private rev: bigint;
  private compactRev = 0n;
  private seq = 0;

  constructor(private readonly deps: WatchHubDeps) {
    this.rev = deps.currentRevision();
    this.maxPendingEvents = deps.maxPendingEvents ?? 4096;
    this.catchUp = new CatchUp(
      {
        unsynced: this.groups.unsynced,
        target: () => this.rev,
        history: (from, to, key, end) => deps.history(from, to, key, end),
        deliver: (w, events) => this.deliver(w, events, this.deps.currentRevision()),
        caughtUp: (w) => this.toSynced(w),
        requeue: (w) => this.groups.requeue(w),
        compacted: (w, compactRevision) => this.cancelCompacted(w, compactRevision),
      },
      BigInt(Math.max(1, deps.catchUpRevisions ?? 1000)),
      Math.max(1, deps.catchUpConcurrency ?? 64),
    );
  }

  /**
   * Opens one client stream. With `flow`, `send` returning false holds the stream back until
   * `flow.drained()` resolves (see types.ts); without it the return value is ignored.
   */
  openWatch(send: WatchSend, flow?: WatchFlow): WatchSession {
    const stream: WatchStream = new WatchStream(send, flow !== undefined, {
      broken: () => this.closeStream(stream),
      blocked: () => {
        if (!flow) return;
        void flow.drained().then(
          () => this.onDrained(stream),
          () => this.closeStream(stream),
        );
      },
    });
    this.streams.add(stream);
    return {
      request: (req: WatchRequest) => this.request(stream, req),
      close: () => this.closeStream(stream),
    };
  }

  /**
   * The events of one applied write at `revision` (change order; each carries prevKv when the
   * key had a previous value). Call right after the write becomes visible in the store, in
   * strictly increasing revision order. A revision at or below the hub's is ignored (history
   * already covers it); a skipped revision sends synced watchers to history for the gap.
   */
  notify(revision: bigint, events: readonly Event[]): void {
    if (revision <= this.rev) return;
    if (revision > this.rev + 1n) {
      this.jump(revision);
      return;
    }
    this.rev = revision;
    const matched = new Map<Watcher, Event[]>();
    for (const ev of events) {
      if (!ev.kv) continue;
      this.groups.matchSynced(keyString(ev.kv.key), (w) => {
        if (w.minRev > revision) return;
        const list = matched.get(w);
        if (list) list.push(ev);
        else matched.set(w, [ev]);
      });
    }
    const readPrev = this.deps.readPrev;
    let withPrev: ((ev: Event) => Event) | undefined;
    for (const [w, evs] of matched) {
      if (w.state !== WatcherState.Synced) continue;
      if (!w.options.prevKv || readPrev === undefined) this.deliverLive(w, revision, evs);
      else this.deliverLive(w, revision, evs.map((withPrev ??= prevReader(readPrev))));
    }
    if (this.catchUp.parkedCount > 0) this.catchUp.kick();
  }

  /** History below `revision` is gone: watchers still needing it get the compacted cancel. */
  compacted(revision: bigint): void {
    if (revision > this.compactRev) this.compactRev = revision;
    for (const w of [...this.groups.unsynced, ...this.groups.victims]) {
      if (w.state !== WatcherState.Detached && w.minRev < revision) this.cancelCompacted(w, revision);
    }
  }

  /** Progress to each synced progress_notify watcher that got no events since the last tick. */
  progressTick(): void {
    this.observe();
    for (const stream of this.streams) {
      for (const w of stream.watchers.values()) {
        if (!w.options.progressNotify) continue;
        if (w.quiet && w.state === WatcherState.Synced && !stream.blocked) {
          stream.emit(r.progressResponse(this.deps.header(this.rev), w.id));
        }
        w.quiet = true;
      }
    }
    if (this.catchUp.parkedCount > 0) this.catchUp.kick();
  }

  stats(): WatchStats {
    let pendingEvents = 0;
    for (const s of this.streams) pendingEvents += s.pendingEvents;
    const slow = this.groups.unsynced.size + this.groups.victims.size;
    return { streams: this.streams.size, watchers: this.groups.syncedCount + slow, slowWatchers: slow, pendingEvents };
  }

  private request(stream: WatchStream, req: WatchRequest): void {
    if (stream.closed) return;
    const u = req.requestUnion;
    if (u === undefined) return;
    switch (u.$case) {
      case 'createRequest':
        return this.create(stream, u.value);
      case 'cancelRequest':
        return this.cancel(stream, u.value.watchId);
      case 'progressRequest':
        stream.deferredProgress = true;
        this.observe();
        return this.answerProgress(stream);
    }
  }

  private create(stream: WatchStream, c: WatchCreateRequest): void {
    const rev = this.observe();
    const header = this.deps.header(rev);
    if (c.startRevision < 0n) return stream.emit(r.createFailedResponse(header, r.CancelReason.Compacted));
    const range = watchRange(c.key, c.rangeEnd);
    if (!range) return stream.emit(r.createFailedResponse(header, r.CancelReason.EmptyRange));
    const id = stream.allocateId(c.watchId);
    if (id === undefined) return stream.emit(r.createFailedResponse(header, r.CancelReason.DuplicateId));
    stream.emit(r.createdResponse(header, id));
    const compactRev = this.deps.compactRevision() > this.compactRev ? this.deps.compactRevision() : this.compactRev;
    if (c.startRevision > 0n && c.startRevision < compactRev) {
      return stream.emit(r.compactedResponse(this.deps.header(0n), id, compactRev));
    }
    const options: WatcherOptions = {
      noPut: c.filters.includes(NOPUT),
      noDelete: c.filters.includes(NODELETE),
      prevKv: c.prevKv,
      fragment: c.fragment,
      progressNotify: c.progressNotify,
    };
    const w: Watcher = {
      seq: this.seq++,
      id,
      stream,
      range,
      options,
      minRev: c.startRevision,
      state: WatcherState.Detached,
      quiet: true,
      reading: false,
      parked: false,
    };
    stream.watchers.set(id, w);
    if (c.startRevision === 0n || c.startRevision > rev) {
      w.minRev = c.startRevision > rev ? c.startRevision : rev + 1n;
      this.groups.toSynced(w);
    } else {
      this.groups.toUnsynced(w);
      this.catchUp.kick();
    }
  }

  private cancel(stream: WatchStream, id: bigint): void {
    const w = stream.watchers.get(id);
    if (!w) return;
    this.detach(w);
    stream.emit(r.canceledResponse(this.deps.header(this.deps.currentRevision()), id));
    this.answerProgress(stream);
  }

  private cancelCompacted(w: Watcher, compactRevision: bigint): void {
    this.detach(w);
    w.stream.emit(r.compactedResponse(this.deps.header(0n), w.id, compactRevision));
    this.answerProgress(w.stream);
  }

  private detach(w: Watcher): void {
    this.groups.remove(w);
    if (w.stream.watchers.get(w.id) === w) w.stream.watchers.delete(w.id);
  }

  private closeStream(stream: WatchStream): void {
    if (stream.closed) return;
    stream.close();
    for (const w of stream.watchers.values()) this.groups.remove(w);
    stream.watchers.clear();
    this.streams.delete(stream);
  }

  private onDrained(stream: WatchStream): void {
    if (!stream.drain()) return;
    if (stream.notSynced === 0) return this.answerProgress(stream);
    for (const w of stream.watchers.values()) if (w.state === WatcherState.Victim) this.groups.toUnsynced(w);
    this.catchUp.kick();
  }

  private toSynced(w: Watcher): void {
    this.groups.toSynced(w);
    this.answerProgress(w.stream);
  }

  /** Answers a pending progress_request once every watcher of the stream is synced. */
  private answerProgress(stream: WatchStream): void {
    if (!stream.deferredProgress || stream.notSynced > 0) return;
    stream.deferredProgress = false;
    if (stream.watchers.size > 0) stream.emit(r.progressResponse(this.deps.header(this.rev), r.InvalidWatchId));
  }

  private deliverLive(w: Watcher, revision: bigint, events: Event[]): void {
    const view = viewEvents(w, events);
    if (view.length > 0 && w.stream.blocked && !w.stream.hasRoom(view.length, this.maxPendingEvents)) {
      w.minRev = revision;
      this.groups.toVictim(w);
      return;
    }
    w.minRev = revision + 1n;
    this.send(w, view, revision);
  }

  /** Caught-up events (already bounded to the watcher's window) go out with the store revision. */
  private deliver(w: Watcher, events: Event[], headerRevision: bigint): void {
    this.send(w, viewEvents(w, events), headerRevision);
  }

  private send(w: Watcher, view: Event[], headerRevision: bigint): void {
    if (view.length === 0) return;
    const resp = r.eventsResponse(this.deps.header(headerRevision), w.id, view);
    const parts = w.options.fragment ? fragmentResponse(resp, this.deps.maxEventBytes) : [resp];
    for (const part of parts) w.stream.emit(part);
    w.quiet = false;
  }

  /** Brings `rev` up to the store's current revision; a jump is a gap. Returns `rev`. */
  private observe(): bigint {
    const current = this.deps.currentRevision();
    if (current > this.rev) this.jump(current);
    return this.rev;
  }

  /** Revisions (rev, to] passed without notify: synced watchers take them from history. */
  private jump(to: bigint): void {
    const next = this.rev + 1n;
    this.rev = to;
    const synced = this.groups.syncedWatchers();
    for (const w of synced) {
      if (w.minRev < next) w.minRev = next;
      this.groups.toUnsynced(w);
    }
    if (synced.length > 0) this.catchUp.kick();
  }
}

/**
 * An event with its prevKv read, for prev_kv watchers: each event is read at most once per
 * write however many watchers get it, and only events some prev_kv watcher gets are read.
 */
function prevReader(readPrev: (events: readonly Event[]) => readonly Event[]): (ev: Event) => Event {
  const read = new Map<Event, Event>();
  return (ev) => {
    let out = read.get(ev);
    if (out === undefined) {
      out = readPrev([ev])[0]!;
      read.set(ev, out);
    }
    return out;
  };
}
