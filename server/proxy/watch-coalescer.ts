/**
 * The gRPC proxy's watch coalescing, pure (no I/O, no clock): the client watchers of one upstream
 * Watch stream (one per caller identity, see watch-proxy.ts) grouped by range into shared
 * upstream watchers ("broadcasts"), as etcd 3.4's grpc-proxy does.
 *
 * Inputs: a client's create / cancel / progress request, a client gone, a member's response.
 * Output: effects — a response for one client stream, or a request for the member.
 *
 * Invariants:
 * - A broadcast asks the member for prev_kv and progress_notify, without filters; each receiver
 *   (client watcher) then gets its own filters, prev_kv choice and watch id.
 * - `nextRev` of a broadcast: every event of its range with a revision below it was delivered,
 *   and every later one will be. A receiver joins a broadcast only when the broadcast's
 *   `nextRev` ≤ the receiver's next revision; it drops events below its own `nextRev`. So a
 *   receiver's events never skip, repeat or reorder.
 * - A watcher starting at an older revision than a live broadcast gets its own broadcast (its
 *   own upstream watch); once that one has caught up (its nextRev ≥ another live broadcast's),
 *   its receivers move there and its upstream watch is cancelled (etcd's coalesce step).
 * - A current watcher (start 0) joins a live broadcast only if that one is synced (it started
 *   current, or got a progress notification, which the member sends only to synced watchers).
 * - Per client stream, created replies go out in request order and before that watcher's
 *   events (clients match created replies to requests in FIFO order): a receiver's responses
 *   are held until every earlier create of its stream got its reply.
 */
import type { ResponseHeader, WatchCreateRequest, WatchRequest, WatchResponse } from '../../proto/gen/etcd/rpc.js';
import { groupKeyOf, receiverView, rangeProblem, type ReceiverState } from './watch-receiver.js';

export type ClientId = number;

export type Effect = { readonly to: 'client'; readonly client: ClientId; readonly response: WatchResponse } | { readonly to: 'member'; readonly request: WatchRequest };

/** A client watcher: its view of the events (watch-receiver.ts) and where it stands here. */
export interface Receiver extends ReceiverState {
  readonly client: ClientId;
  /** Responses held until the earlier creates of its stream are answered; undefined once released. */
  held: WatchResponse[] | undefined;
  broadcast: Broadcast | undefined;
}

export interface Broadcast {
  readonly group: string;
  readonly create: WatchCreateRequest;
  memberId: bigint | undefined;
  nextRev: number;
  synced: boolean;
  inFragment: boolean;
  readonly receivers: Set<Receiver>;
}

interface ClientState {
  readonly watchers: Map<bigint, Receiver>;
  /** Receivers (and failed creates) whose created reply is not out yet, in request order. */
  readonly order: Receiver[];
  nextId: bigint;
}

const EMPTY_HEADER: ResponseHeader = { clusterId: 0n, memberId: 0n, revision: 0n, raftTerm: 0n };

export function response(r: Partial<WatchResponse>): WatchResponse {
  return { header: undefined, watchId: 0n, created: false, canceled: false, compactRevision: 0n, cancelReason: '', fragment: false, events: [], ...r };
}

export class WatchCoalescer {
  readonly #clients = new Map<ClientId, ClientState>();
  readonly #groups = new Map<string, Set<Broadcast>>();
  readonly #pendingCreates: Broadcast[] = [];
  readonly #byMemberId = new Map<bigint, Broadcast>();
  readonly #progressWaiting: ClientId[] = [];
  #lastHeader: ResponseHeader = EMPTY_HEADER;
  #upstreamCreates = 0;
  #out: Effect[] = [];

  /** How many watchers this core asked the member for (one per broadcast). */
  get upstreamCreates(): number {
    return this.#upstreamCreates;
  }

  /** Live and pending broadcasts (upstream watchers). */
  get broadcasts(): number {
    let n = 0;
    for (const g of this.#groups.values()) n += g.size;
    return n;
  }

  get clients(): ClientId[] {
    return [...this.#clients.keys()];
  }

  create(client: ClientId, req: WatchCreateRequest): Effect[] {
    const c = this.#client(client);
    const problem = rangeProblem(req.key, req.rangeEnd) ?? (req.watchId !== 0n && c.watchers.has(req.watchId) ? 'mvcc: duplicate watch ID provided on the WatchStream' : undefined);
    if (problem !== undefined) {
      const failed = this.#receiver(client, -1n, 0, req);
      c.order.push(failed);
      this.#deliver(failed, response({ header: this.#lastHeader, watchId: -1n, created: true, canceled: true, cancelReason: problem }));
      return this.#flush();
    }
    let id = req.watchId;
    if (id === 0n) {
      while (c.watchers.has(c.nextId)) c.nextId++;
      id = c.nextId++;
    }
    const rx = this.#receiver(client, id, Number(req.startRevision), req);
    c.watchers.set(id, rx);
    c.order.push(rx);
    const group = groupKeyOf(req);
    const set = this.#groups.get(group) ?? new Set<Broadcast>();
    this.#groups.set(group, set);
    const live = [...set].find((b) => b.memberId !== undefined && (rx.nextRev === 0 ? b.synced : rx.nextRev >= b.nextRev) && !b.inFragment);
    if (live !== undefined) {
      if (rx.nextRev === 0) rx.nextRev = live.nextRev;
      live.receivers.add(rx);
      rx.broadcast = live;
      this.#deliver(rx, response({ header: { ...this.#lastHeader, revision: BigInt(Math.max(0, live.nextRev - 1)) }, watchId: id, created: true }));
      return this.#flush();
    }
    // A pending broadcast's created reply will come from the member (etcd's rule for joining one).
    const pending = [...set].find((b) => b.memberId === undefined && b.receivers.size > 0 && (b.nextRev === 0 ? rx.nextRev === 0 : rx.nextRev >= b.nextRev));
    if (pending !== undefined) {
      pending.receivers.add(rx);
      rx.broadcast = pending;
      return this.#flush();
    }
    const b: Broadcast = {
      group,
      create: { key: req.key, rangeEnd: req.rangeEnd, startRevision: req.startRevision, progressNotify: true, filters: [], prevKv: true, watchId: 0n, fragment: req.fragment },
      memberId: undefined,
      nextRev: rx.nextRev,
      synced: false,
      inFragment: false,
      receivers: new Set([rx]),
    };
    rx.broadcast = b;
    set.add(b);
    this.#pendingCreates.push(b);
    this.#upstreamCreates++;
    this.#out.push({ to: 'member', request: { requestUnion: { $case: 'createRequest', value: b.create } } });
    return this.#flush();
  }

  cancel(client: ClientId, id: bigint): Effect[] {
    const rx = this.#clients.get(client)?.watchers.get(id);
    if (rx === undefined) return [];
    const b = rx.broadcast;
    // Not answered yet: the member would have answered the create first.
    if (rx.held !== undefined && !(rx.held[0]?.created ?? false)) this.#deliver(rx, response({ header: this.#lastHeader, watchId: id, created: true }));
    this.#deliver(rx, response({ header: this.#lastHeader, watchId: id, canceled: true }));
    this.#drop(rx);
    if (b !== undefined) this.#leave(b, rx);
    return this.#flush();
  }

  progress(client: ClientId): Effect[] {
    this.#client(client);
    this.#progressWaiting.push(client);
    this.#out.push({ to: 'member', request: { requestUnion: { $case: 'progressRequest', value: {} } } });
    return this.#flush();
  }

  /** The client's stream ended: its watchers leave their broadcasts; nothing is sent to it. */
  clientGone(client: ClientId): Effect[] {
    const c = this.#clients.get(client);
    if (c === undefined) return [];
    this.#clients.delete(client);
    for (const rx of c.watchers.values()) if (rx.broadcast !== undefined) this.#leave(rx.broadcast, rx);
    return this.#flush().filter((e) => e.to === 'member');
  }

  fromMember(r: WatchResponse): Effect[] {
    if (r.header !== undefined && r.header.revision > 0n) this.#lastHeader = r.header;
    if (r.created) this.#created(r);
    else if (r.watchId === -1n) {
      const client = this.#progressWaiting.shift();
      if (client !== undefined && this.#clients.has(client)) this.#out.push({ to: 'client', client, response: r });
    } else {
      const b = this.#byMemberId.get(r.watchId);
      if (b !== undefined && r.canceled) this.#cancelled(b, r);
      else if (b !== undefined) this.#fanOut(b, r);
    }
    return this.#flush();
  }

  #created(r: WatchResponse): void {
    const b = this.#pendingCreates.shift();
    if (b === undefined) return;
    if (r.canceled || r.watchId === -1n) {
      for (const rx of b.receivers) {
        this.#deliver(rx, { ...r, watchId: -1n });
        this.#drop(rx);
      }
      this.#groups.get(b.group)?.delete(b);
      return;
    }
    b.memberId = r.watchId;
    if (b.receivers.size === 0) {
      this.#groups.get(b.group)?.delete(b);
      this.#out.push({ to: 'member', request: { requestUnion: { $case: 'cancelRequest', value: { watchId: r.watchId } } } });
      return;
    }
    this.#byMemberId.set(r.watchId, b);
    const rev = Number(r.header?.revision ?? 0n);
    if (b.nextRev === 0) {
      b.nextRev = rev + 1;
      b.synced = true;
    }
    for (const rx of b.receivers) {
      if (rx.nextRev === 0) rx.nextRev = rev + 1;
      this.#deliver(rx, { ...r, watchId: rx.id });
    }
  }

  #cancelled(b: Broadcast, r: WatchResponse): void {
    for (const rx of b.receivers) {
      this.#deliver(rx, response({ header: r.header, watchId: rx.id, canceled: true, compactRevision: r.compactRevision, cancelReason: r.cancelReason }));
      this.#drop(rx);
    }
    this.#forget(b);
  }

  #fanOut(b: Broadcast, r: WatchResponse): void {
    const progressNotify = r.events.length === 0 && r.compactRevision === 0n;
    if (progressNotify && !b.inFragment) {
      b.synced = true;
      b.nextRev = Math.max(b.nextRev, Number(r.header?.revision ?? 0n) + 1);
    }
    for (const rx of b.receivers) {
      const view = receiverView(rx, r);
      if (view !== undefined) this.#deliver(rx, view);
    }
    b.inFragment = r.fragment;
    const last = r.events.at(-1)?.kv?.modRevision;
    if (!r.fragment && last !== undefined) b.nextRev = Math.max(b.nextRev, Number(last) + 1);
    if (!r.fragment) this.#coalesce(b);
  }

  /** etcd's coalesce step: `b`'s receivers move to a live broadcast that is not ahead of it. */
  #coalesce(b: Broadcast): void {
    const into = [...(this.#groups.get(b.group) ?? [])].find((t) => t !== b && t.memberId !== undefined && !t.inFragment && t.nextRev <= b.nextRev);
    if (into === undefined) return;
    for (const rx of b.receivers) {
      into.receivers.add(rx);
      rx.broadcast = into;
    }
    b.receivers.clear();
    this.#forget(b);
    this.#out.push({ to: 'member', request: { requestUnion: { $case: 'cancelRequest', value: { watchId: b.memberId! } } } });
  }

  #leave(b: Broadcast, rx: Receiver): void {
    b.receivers.delete(rx);
    rx.broadcast = undefined;
    if (b.receivers.size > 0) return;
    if (b.memberId === undefined) return; // cancelled when its created reply comes
    this.#forget(b);
    this.#out.push({ to: 'member', request: { requestUnion: { $case: 'cancelRequest', value: { watchId: b.memberId } } } });
  }

  #forget(b: Broadcast): void {
    this.#groups.get(b.group)?.delete(b);
    if (this.#groups.get(b.group)?.size === 0) this.#groups.delete(b.group);
    if (b.memberId !== undefined) this.#byMemberId.delete(b.memberId);
  }

  /** The receiver leaves its stream's table (its id may be reused); held responses still go out. */
  #drop(rx: Receiver): void {
    const c = this.#clients.get(rx.client);
    if (c !== undefined && c.watchers.get(rx.id) === rx) c.watchers.delete(rx.id);
    rx.broadcast = undefined;
  }

  #client(client: ClientId): ClientState {
    let c = this.#clients.get(client);
    if (c === undefined) {
      c = { watchers: new Map(), order: [], nextId: 0n };
      this.#clients.set(client, c);
    }
    return c;
  }

  #receiver(client: ClientId, id: bigint, nextRev: number, req: WatchCreateRequest): Receiver {
    const filters = new Set(req.filters);
    return { client, id, nextRev, progress: req.progressNotify, prevKv: req.prevKv, noPut: filters.has(0), noDelete: filters.has(1), inFragment: false, held: [], broadcast: undefined };
  }

  /** To the receiver's stream, in order: held while an earlier create of that stream is unanswered. */
  #deliver(rx: Receiver, r: WatchResponse): void {
    const c = this.#clients.get(rx.client);
    if (c === undefined) return;
    if (rx.held === undefined) {
      this.#out.push({ to: 'client', client: rx.client, response: r });
      return;
    }
    rx.held.push(r);
    while (c.order.length > 0 && (c.order[0]!.held?.[0]?.created ?? false)) {
      const head = c.order.shift()!;
      for (const h of head.held!) this.#out.push({ to: 'client', client: head.client, response: h });
      head.held = undefined;
    }
  }

  #flush(): Effect[] {
    const out = this.#out;
    this.#out = [];
    return out;
  }
}
