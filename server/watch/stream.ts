/**
 * One client watch stream: its watch ids, and its single ordered output.
 *
 * Output discipline: every response of the stream goes through emit(), in order. While the
 * transport accepts (send returned true/void) responses go straight out; once send returns
 * false (and the stream can block) the stream is blocked and responses queue in the outbox
 * (FIFO) until drain() is called after the transport drained. The hub bounds how many *events* a blocked stream may queue (hasRoom); control responses
 * (created, canceled, progress) always queue, so per-stream order is never broken.
 *
 * After close() nothing is ever sent. A send that throws closes the stream through `broken`.
 */
import type { WatchResponse } from '../../proto/gen/etcd/rpc.js';
import type { WatchSend } from './types.js';
import type { Watcher } from './watcher.js';

export class WatchStream {
  /** Live watchers of this stream by client-visible id. */
  readonly watchers = new Map<bigint, Watcher>();
  /** Watchers of this stream not in the synced group (kept by the hub's group moves). */
  notSynced = 0;
  /** A progress_request waits until every watcher of the stream is synced. */
  deferredProgress = false;
  /** Events currently queued in the outbox. */
  pendingEvents = 0;
  private nextId = 0n;
  private isBlocked = false;
  private isClosed = false;
  private outbox: WatchResponse[] = [];
  private head = 0;

  /**
   * `canBlock`: honour `false` from send (the edge offered flow control). `onBlocked` runs once
   * per transition to blocked; the owner calls drain() when the transport has drained.
   */
  constructor(
    private readonly send: WatchSend,
    private readonly canBlock: boolean,
    private readonly hooks: { readonly broken: (cause: unknown) => void; readonly blocked: () => void },
  ) {}

  get blocked(): boolean {
    return this.isBlocked;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * The id for a create request: `requested` 0 → the per-stream counter (from 0, skipping ids
   * in use); otherwise `requested` itself, or undefined when it is in use.
   */
  allocateId(requested: bigint): bigint | undefined {
    if (requested !== 0n) return this.watchers.has(requested) ? undefined : requested;
    while (this.watchers.has(this.nextId)) this.nextId++;
    return this.nextId++;
  }

  /** Whether `events` more events may queue while blocked. */
  hasRoom(events: number, maxPendingEvents: number): boolean {
    return this.pendingEvents + events <= maxPendingEvents;
  }

  /** Sends (or, while blocked, queues) one response. No-op after close. */
  emit(resp: WatchResponse): void {
    if (this.isClosed) return;
    if (this.isBlocked) {
      this.outbox.push(resp);
      this.pendingEvents += resp.events.length;
      return;
    }
    this.deliver(resp);
  }

  /**
   * The transport drained: sends queued responses until the outbox is empty or send pushes
   * back again. Returns true when the stream ends open and unblocked.
   */
  drain(): boolean {
    if (this.isClosed) return false;
    this.isBlocked = false;
    while (this.head < this.outbox.length && !this.isBlocked && !this.isClosed) {
      const resp = this.outbox[this.head] as WatchResponse;
      this.head++;
      this.pendingEvents -= resp.events.length;
      this.deliver(resp);
    }
    if (this.head === this.outbox.length) {
      this.outbox = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.outbox.length) {
      this.outbox = this.outbox.slice(this.head);
      this.head = 0;
    }
    return !this.isBlocked && !this.isClosed;
  }

  /** Stops all output and drops anything queued. Idempotent. */
  close(): void {
    this.isClosed = true;
    this.outbox = [];
    this.head = 0;
    this.pendingEvents = 0;
  }

  private deliver(resp: WatchResponse): void {
    let accepted: boolean | void;
    try {
      accepted = this.send(resp);
    } catch (cause) {
      this.hooks.broken(cause);
      return;
    }
    if (accepted === false && this.canBlock && !this.isClosed) {
      this.isBlocked = true;
      this.hooks.blocked();
    }
  }
}
