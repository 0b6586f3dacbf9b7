/**
 * Serializable Ranges answered on the front-end thread, from a read replica of the store
 * (mvcc/read-replica.ts) fed by the core (replica-feed.ts): such a read needs no consensus, so
 * it needs no round trip to the core either.
 *
 * The replica is kept only while serializable Ranges are asked for (replica-demand.ts): the
 * first one asks the core for it and is itself answered by the core.
 *
 * A stream is taken here only when it is a plain gRPC call to KV/Range without `hasleader`
 * or credentials (a token is checked by the core even while auth is off), and auth is off. Its request is read whole (up to `SMALL` bytes); the front end answers it
 * itself only when everything is ordinary: one uncompressed message that decodes,
 * `serializable` set, a key, a replica holding the revision asked for, a read that succeeds and
 * a reply within the send limit. Anything else — errors included — is forwarded to the core as
 * if it had never stopped here (`forward`), which answers as always. So a local answer is
 * always the answer the core would have given at the replica's revision.
 *
 * Fresh enough: the replica hears every change before any reply written after it (one ordered
 * channel), so a client never reads older data here than a reply it has already had through
 * this member. The header is the core's: cluster and member ids and Raft term from the
 * context, the replica's revision.
 */
import type { Event } from '../../proto/gen/etcd/kv.js';
import { performance } from 'node:perf_hooks';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { toRangeParams } from '../apply/range-params.js';
import { requiresLeader, type MetadataReader } from '../api/grpc/context.js';
import { decodeRequest, PREFIX_BYTES } from '../api/grpc/fast-path-request.js';
import { fieldReader, OK_BLOCK, plainGrpcStream, RESPONSE_BLOCK } from '../api/grpc/h2-call-blocks.js';
import { replyFramers } from '../api/grpc/framed-replies.js';
import { ReadReplica } from '../mvcc/read-replica.js';
import type { Backend } from '../storage/backend.js';
import type { H2Stream } from '../transport/h2/h2-stream.js';
import { FromCore } from './records.js';
import { ReplicaDemand } from './replica-demand.js';
import { decodeChange, decodeContext, decodeRevision, type ReplicaContext } from './replica-records.js';

const RANGE = pb.KVService.range.path;
/** Requests larger than this are forwarded as they arrive (a Range is a few dozen bytes). */
const SMALL = 16 * 1024;

export interface LocalReadsOptions {
  /** The front end's handle on the member's backend, if it could open one. */
  readonly backend: Backend | undefined;
  readonly maxRecvBytes: number;
  readonly maxSendBytes: number;
  /** `n` more Ranges were answered here (the core counts them in its metrics). */
  readonly onServed: (n: number) => void;
  /** The replica failed to follow the core; everything is forwarded until the next image. */
  readonly onBroken: (err: Error) => void;
  /** Ask the core for a replica (an image, then the feed). */
  readonly onWanted: () => void;
  /** The replica was dropped: the core may stop feeding it. */
  readonly onIdle: () => void;
  /** See replica-demand.ts (default DEFAULT_REPLICA_IDLE_MS). */
  readonly idleMs?: number;
}

/** How often the replica's use is checked. */
const IDLE_CHECK_MS = 1_000;

/**
 * The replica's changes, as a front end's watch hub follows them (local-watches.ts), in the
 * order the core made them.
 */
export interface ReplicaFollower {
  /** Whether the changes' events should carry their previous records (open watch streams). */
  readonly wantsPrev: boolean;
  /** A replica from a new image: whatever was built on the previous one is stale. */
  imaged(replica: ReadReplica): void;
  /** A write transaction ended at `main` with these events (the replica already holds them). */
  changed(main: bigint, events: Event[]): void;
  compacted(revision: bigint): void;
  /** The replica is gone (dropped while unused, or it failed to follow). */
  dropped(): void;
}

/** Whether a call carries credentials (a token, or the gateway's `authorization`). */
export function carriesCredentials(metadata: MetadataReader): boolean {
  return metadata.get('token').length > 0 || metadata.get('authorization').length > 0;
}

/** Hands a stream to the core, with the request bytes read so far (and whether it ended). */
export type Forward = (stream: H2Stream, read: readonly Buffer[], ended: boolean) => void;

export class LocalReads {
  #replica: ReadReplica | undefined;
  #context: ReplicaContext | undefined;
  #broken = false;
  #served = 0;
  #follower: ReplicaFollower | undefined;
  readonly #frame = replyFramers().get(RANGE)!;
  readonly #demand: ReplicaDemand;
  readonly #timer: NodeJS.Timeout;

  constructor(private readonly o: LocalReadsOptions) {
    this.#demand = new ReplicaDemand(o.idleMs);
    this.#timer = setInterval(() => {
      if (this.#replica === undefined || !this.#demand.idle(performance.now())) return;
      this.#replica = undefined;
      this.#follower?.dropped();
      this.o.onIdle();
    }, IDLE_CHECK_MS);
    this.#timer.unref();
  }

  /** Also feeds the replica's changes to `follower`. */
  follow(follower: ReplicaFollower): void {
    this.#follower = follower;
  }

  /** The core's context, once it sent one. */
  get context(): ReplicaContext | undefined {
    return this.#context;
  }

  /** Whether the thread can hold a replica at all (it opened the member's database). */
  get possible(): boolean {
    return this.o.backend !== undefined;
  }

  /** The demand of replica-demand.ts, shared with the watch streams. */
  get demand(): ReplicaDemand {
    return this.#demand;
  }

  /** A call that could use the replica was seen now: asks the core for one if needed; the replica, if held. */
  wanted(): ReadReplica | undefined {
    if (this.#demand.asked(performance.now())) this.o.onWanted();
    return this.#replica;
  }

  /** Stops checking the replica's use. */
  close(): void {
    clearInterval(this.#timer);
  }

  /** A replica record from the core (records.ts `Replica*`). */
  fromCore(kind: number, payload: Buffer): void {
    if (this.o.backend === undefined) return;
    // A new image starts over, even after a failure.
    if (kind === FromCore.ReplicaImage) this.#broken = false;
    if (this.#broken) return;
    try {
      this.#apply(kind, payload);
    } catch (err) {
      this.#broken = true;
      this.#replica = undefined;
      this.#demand.lost();
      this.#follower?.dropped();
      this.o.onBroken(err as Error);
    }
  }

  #apply(kind: number, payload: Buffer): void {
    switch (kind) {
      case FromCore.ReplicaImage:
        this.#replica = ReadReplica.fromImage(this.o.backend!, payload);
        this.#demand.imaged();
        this.#follower?.imaged(this.#replica);
        return;
      case FromCore.ReplicaContext:
        this.#context = decodeContext(payload);
        return;
    }
    const replica = this.#replica;
    if (replica === undefined) return;
    switch (kind) {
      case FromCore.ReplicaHold: {
        const { main, events } = decodeChange(payload);
        replica.hold(main, events);
        return;
      }
      case FromCore.ReplicaChange: {
        const { main, events } = decodeChange(payload);
        const follower = this.#follower;
        replica.applyChange(main, events as Event[], follower?.wantsPrev === true);
        follower?.changed(main, events as Event[]);
        return;
      }
      case FromCore.ReplicaRelease:
        replica.release(decodeRevision(payload));
        return;
      case FromCore.ReplicaCompact: {
        const revision = decodeRevision(payload);
        replica.compact(revision);
        this.#follower?.compacted(revision);
        return;
      }
    }
  }

  /** Whether `stream` is one this thread may answer (it then owns the stream until it forwards it). */
  takes(stream: H2Stream): boolean {
    if (this.o.backend === undefined || this.#context === undefined || this.#context.authEnabled) return false;
    if (stream.header(':path') !== RANGE || !plainGrpcStream(stream)) return false;
    const metadata = fieldReader(stream.headers);
    return !requiresLeader(metadata) && !carriesCredentials(metadata);
  }

  /** Reads the request of a stream `takes` accepted, then answers it or forwards it. */
  serve(stream: H2Stream, forward: Forward): void {
    const read: Buffer[] = [];
    let size = 0;
    let done = false;
    const limit = Math.min(SMALL, this.o.maxRecvBytes);
    // Granted back only once answered here; forwarded, the core grants as it reads.
    stream.autoGrant = false;
    stream.onData = (chunk) => {
      if (done) return;
      read.push(chunk);
      size += chunk.length;
      if (size <= limit) return;
      done = true;
      forward(stream, read, false);
    };
    stream.onEnd = () => {
      if (done) return;
      done = true;
      const body = read.length === 1 ? read[0]! : Buffer.concat(read);
      this.#answer(stream, body).then(
        (answered) => {
          if (!answered && !stream.closed) forward(stream, read, true);
        },
        () => {
          if (!stream.closed) forward(stream, read, true);
        },
      );
    };
    stream.onReset = () => {
      done = true;
    };
  }

  /** Answers the call from the replica; false when the core should. */
  async #answer(stream: H2Stream, body: Buffer): Promise<boolean> {
    const decoded = decodeRequest(body, RANGE, pb.KVService.range.requestDeserialize);
    if ('code' in decoded) return false;
    const req = decoded.request as pb.RangeRequest;
    if (!req.serializable) return false;
    const replica = this.wanted();
    if (req.key.length === 0 || replica === undefined || req.revision > replica.currentRevision) return false;
    const res = await replica.range(toRangeParams(req));
    const context = this.#context;
    // The replica, or auth, may have changed during the read: answer only from the same replica, auth still off.
    if (!res.ok || stream.closed || replica !== this.#replica || context === undefined || context.authEnabled) return false;
    const header = { clusterId: context.clusterId, memberId: context.memberId, revision: replica.currentRevision, raftTerm: context.raftTerm };
    const frame = this.#frame({ header, kvs: res.value.kvs, more: res.value.more, count: res.value.count } satisfies pb.RangeResponse);
    if (frame.length - PREFIX_BYTES > this.o.maxSendBytes) return false;
    stream.consumed(body.length);
    stream.respond(RESPONSE_BLOCK);
    stream.write(frame);
    stream.end(OK_BLOCK);
    if (this.#served++ === 0) setImmediate(() => this.#report());
    return true;
  }

  #report(): void {
    const n = this.#served;
    this.#served = 0;
    if (n > 0) this.o.onServed(n);
  }
}
