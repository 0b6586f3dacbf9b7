/**
 * Watch streams served on the front-end thread, from its read replica (replica-host.ts): the
 * member's own watch hub (watch/watch-hub.ts) and Watch handler (api/grpc/watch.ts), run here
 * over the replica instead of the store, so that neither the events nor the client's requests
 * cross to the core.
 *
 * - **Which streams.** A plain gRPC call to Watch/Watch without credentials (no token, no
 *   client certificate: the core decides who such a caller is), on a member that is not a
 *   learner, while auth is off and a replica is held. A `hasleader` stream is taken only while
 *   the member knows a leader (else the core fails it with etcd's error). Any other stream goes
 *   to the core, and so does the first Watch seen without a replica: it asks the core for one
 *   (replica-demand.ts), which is then kept while a stream served here is open.
 * - **Events.** The hub is notified with each change right after the replica takes it, in the
 *   core's order: a change reaches the thread before the reply of the write that made it, so a
 *   watcher here sees an event no later than through the core. Events carry their previous
 *   records unread while any stream is open (`wantsPrev`), read only for `prev_kv` watchers;
 *   history (a start revision in the past, catch-up of slow watchers) is read from the replica.
 * - **Headers** carry the core's cluster and member ids and Raft term (the replica's context).
 * - **Leader.** A `hasleader` stream is cancelled with `etcdserver: no leader` after 3 election
 *   timeouts without one, as on the core (api/grpc/leader-monitor.ts), from the context.
 * - **Auth.** If auth is turned on while a stream served here is open, its watchers go on (as
 *   etcd's do), and each create request on it is refused as the core refuses one without a
 *   user (created + canceled, `etcdserver: user name is empty`).
 * - **A new image or a lost replica** ends every stream served here with UNAVAILABLE; clients
 *   watch again (etcd's clients do so by themselves), and the core or a new hub serves them.
 * - **Counted.** About once a second the thread reports the Watch method's gRPC counts and
 *   the hub's gauges (watch-report.ts); the core adds them to its own.
 */
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Event } from '../../proto/gen/etcd/kv.js';
import * as pb from '../../proto/gen/etcd/rpc.js';
import type { WatchService, WatchSession } from '../api/services.js';
import { GrpcCode } from '../api/grpc/codes.js';
import type { EdgeContext } from '../api/grpc/context.js';
import { requiresLeader } from '../api/grpc/context.js';
import { guardDecoding } from '../api/grpc/decode-guard.js';
import { replyFramers } from '../api/grpc/framed-replies.js';
import { H2StreamingCall, type StreamingOptions } from '../api/grpc/h2-streaming-call.js';
import { fieldReader, plainGrpcStream, tlsAuthContext } from '../api/grpc/h2-call-blocks.js';
import { NoLeaderMonitor } from '../api/grpc/leader-monitor.js';
import { MethodTally } from '../api/grpc/metrics.js';
import type { ServedMethod } from '../api/grpc/method-table.js';
import { watchHandlers } from '../api/grpc/watch.js';
import { deniedWatchCreate } from '../api/grpc/watch-denied.js';
import type { ReadReplica } from '../mvcc/read-replica.js';
import type { H2Stream } from '../transport/h2/h2-stream.js';
import type { WatchStats } from '../watch/types.js';
import { WatchHub } from '../watch/watch-hub.js';
import { carriesCredentials } from './local-reads.js';
import type { ReplicaFollower, ReplicaHost } from './replica-host.js';
import { encodeWatchReport } from './watch-report.js';

const WATCH = pb.WatchService.watch.path;
const REPORT_MS = 1_000;
/** Why a stream served here ended without the client asking (it watches again). */
const MOVED = 'watch stream moved: the front end rebuilt its copy of the store; watch again';

export interface LocalWatchesOptions {
  readonly maxRecvBytes: number;
  readonly maxSendBytes: number;
  /** Fragmenting threshold (the core's: max-request-bytes + 512 KiB). */
  readonly maxEventBytes: number;
  /** --experimental-watch-progress-notify-interval. */
  readonly progressIntervalMs: number;
  readonly electionTimeoutMs: number;
  readonly logger: Logger;
  /** A report for the core (watch-report.ts). */
  readonly onReport: (payload: Buffer) => void;
  /** A stream served here ended by a fault inside the member (logged here; counted by the core). */
  readonly onFault?: (path: string) => void;
}

export class LocalWatches implements ReplicaFollower {
  #hub: WatchHub | undefined;
  readonly #calls = new Set<H2StreamingCall>();
  readonly #tally = new MethodTally('bidi_stream', 'etcdserverpb.Watch', 'Watch');
  /** The gauges last reported. */
  #reported: WatchStats = { streams: 0, watchers: 0, slowWatchers: 0, pendingEvents: 0 };
  readonly #handler: ServedMethod;
  readonly #limits: StreamingOptions;
  readonly #monitor: NoLeaderMonitor;
  readonly #timers: NodeJS.Timeout[];

  constructor(
    private readonly host: ReplicaHost,
    private readonly o: LocalWatchesOptions,
  ) {
    this.#monitor = new NoLeaderMonitor(() => host.context?.hasLeader === true, o.electionTimeoutMs);
    const ctx: EdgeContext = {
      hasLeader: () => host.context?.hasLeader === true,
      isLearner: () => host.context?.learner === true,
      capable: () => true,
      logger: o.logger,
      metrics: { method: () => this.#tally, clientFault: () => undefined },
      noLeader: this.#monitor,
    };
    const def = guardDecoding(pb.WatchService).watch!;
    this.#handler = {
      kind: 'bidi',
      path: WATCH,
      func: watchHandlers(ctx, this.#service()).watch as ServedMethod['func'],
      serialize: def.responseSerialize as ServedMethod['serialize'],
      deserialize: def.requestDeserialize,
    };
    this.#limits = {
      maxRecvBytes: o.maxRecvBytes,
      maxSendBytes: o.maxSendBytes,
      framers: replyFramers(),
      onFault: (err, stream) => {
        o.logger.error({ err, stream: stream.id, method: WATCH }, 'a client call failed inside the member; answered INTERNAL');
        o.onFault?.(WATCH);
      },
    };
    this.#timers = [setInterval(() => this.#hub?.progressTick(), o.progressIntervalMs), setInterval(() => this.#report(), REPORT_MS)];
    for (const t of this.#timers) t.unref();
    host.follow(this);
  }

  /** Whether `stream` (on `socket`) is served here; it then belongs to `serve`. */
  takes(stream: H2Stream, socket: Socket): boolean {
    const context = this.host.context;
    if (!this.host.possible || context === undefined || context.authEnabled || context.learner) return false;
    if (stream.header(':path') !== WATCH || !plainGrpcStream(stream)) return false;
    const metadata = fieldReader(stream.headers);
    if (carriesCredentials(metadata) || tlsAuthContext(socket)?.sslPeerCertificate !== undefined) return false;
    if (requiresLeader(metadata) && !context.hasLeader) return false;
    return this.host.wanted() !== undefined && this.#hub !== undefined;
  }

  serve(stream: H2Stream, socket: Socket): void {
    const call = new H2StreamingCall(stream, this.#handler, this.#limits, socket);
    this.#calls.add(call);
    this.host.demand.pin();
    call.once('close', () => {
      this.#calls.delete(call);
      this.host.demand.unpin(performance.now());
    });
    call.serve();
  }

  /** Stops the timers; streams end with their connections. */
  close(): void {
    for (const t of this.#timers) clearInterval(t);
    this.#report();
  }

  // ---- the replica (ReplicaFollower) ----

  get wantsPrev(): boolean {
    return this.#calls.size > 0;
  }

  imaged(replica: ReadReplica): void {
    this.#endAll();
    this.#hub = this.#hubOver(replica);
  }

  changed(main: bigint, events: Event[]): void {
    this.#hub?.notify(main, events);
  }

  compacted(revision: bigint): void {
    this.#hub?.compacted(revision);
  }

  dropped(): void {
    this.#endAll();
    this.#hub = undefined;
  }

  // ---- inside ----

  #hubOver(replica: ReadReplica): WatchHub {
    return new WatchHub({
      history: (from, to, key, end) => replica.history(from, to, key, end),
      readPrev: (events) => replica.readPrev(events),
      currentRevision: () => replica.currentRevision,
      compactRevision: () => replica.compactRevision,
      header: (revision) => this.#header(revision),
      maxEventBytes: this.o.maxEventBytes,
    });
  }

  #header(revision: bigint): pb.ResponseHeader {
    const c = this.host.context;
    return { clusterId: c?.clusterId ?? 0n, memberId: c?.memberId ?? 0n, revision, raftTerm: c?.raftTerm ?? 0n };
  }

  /** The hub as the Watch handler sees it, with the create refusal while auth is on. */
  #service(): WatchService {
    return {
      openWatch: (send, flow): WatchSession => {
        const hub = this.#hub;
        if (hub === undefined) throw new Error('no watch hub on the front end');
        const session = hub.openWatch(send, flow);
        return {
          request: (req) => {
            if (req.requestUnion?.$case === 'createRequest' && this.host.context?.authEnabled === true) {
              send(deniedWatchCreate(this.#header(this.host.replica?.currentRevision ?? 0n), { kind: 'UserEmpty' }));
              return;
            }
            session.request(req);
          },
          close: () => session.close(),
        };
      },
    };
  }

  /** Ends every stream served here (the client watches again). */
  #endAll(): void {
    for (const call of [...this.#calls]) call.emit('error', { code: GrpcCode.Unavailable, details: MOVED });
  }

  /** The counts since the last report (the tally is then zeroed) and the gauges, when either changed. */
  #report(): void {
    const t = this.#tally;
    const s = this.#hub?.stats() ?? { streams: 0, watchers: 0, slowWatchers: 0, pendingEvents: 0 };
    const r = this.#reported;
    const counted = t.started + t.received + t.sent + t.handled.reduce((a, b) => a + b, 0) > 0;
    const moved = s.streams !== r.streams || s.watchers !== r.watchers || s.slowWatchers !== r.slowWatchers || s.pendingEvents !== r.pendingEvents;
    if (!counted && !moved) return;
    this.o.onReport(encodeWatchReport({ stats: s, started: t.started, received: t.received, sent: t.sent, handled: t.handled }));
    t.started = t.received = t.sent = 0;
    t.handled.fill(0);
    this.#reported = s;
  }
}
