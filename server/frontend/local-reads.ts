/**
 * Serializable Ranges answered on the front-end thread, from its read replica of the store
 * (replica-host.ts, fed by the core through replica-feed.ts): such a read needs no consensus,
 * so it needs no round trip to the core either.
 *
 * The replica is kept only while it is used (replica-demand.ts): the first serializable Range
 * asks the core for it and is itself answered by the core.
 *
 * A stream is taken here only when it is a plain gRPC call to KV/Range without `hasleader` or
 * credentials (a token is checked by the core even while auth is off), and auth is off. Its
 * request is read whole (up to `SMALL` bytes); the front end answers it itself only when
 * everything is ordinary: one uncompressed message that decodes, `serializable` set, a key, a
 * replica holding the revision asked for, a read that succeeds and a reply within the send
 * limit. Anything else — errors included — is forwarded to the core as if it had never stopped
 * here (`forward`), which answers as always. So a local answer is always the answer the core
 * would have given at the replica's revision.
 *
 * Fresh enough: the replica hears every change before any reply written after it (one ordered
 * channel), so a client never reads older data here than a reply it has already had through
 * this member. The header is the core's: cluster and member ids and Raft term from the
 * context, the replica's revision.
 */
import * as pb from '../../proto/gen/etcd/rpc.js';
import { toRangeParams } from '../apply/range-params.js';
import { requiresLeader, type MetadataReader } from '../api/grpc/context.js';
import { decodeRequest, PREFIX_BYTES } from '../api/grpc/request-message.js';
import { fieldReader, OK_BLOCK, plainGrpcStream, RESPONSE_BLOCK } from '../api/grpc/h2-call-blocks.js';
import { replyFramers } from '../api/grpc/framed-replies.js';
import type { H2Stream } from '../transport/h2/h2-stream.js';
import type { ReplicaHost } from './replica-host.js';

const RANGE = pb.KVService.range.path;
/** Requests larger than this are forwarded as they arrive (a Range is a few dozen bytes). */
const SMALL = 16 * 1024;

export interface LocalReadsOptions {
  readonly maxRecvBytes: number;
  readonly maxSendBytes: number;
  /** `n` more Ranges were answered here (the core counts them in its metrics). */
  readonly onServed: (n: number) => void;
}

/** Whether a call carries credentials (a token, or the gateway's `authorization`). */
export function carriesCredentials(metadata: MetadataReader): boolean {
  return metadata.get('token').length > 0 || metadata.get('authorization').length > 0;
}

/** Hands a stream to the core, with the request bytes read so far (and whether it ended). */
export type Forward = (stream: H2Stream, read: readonly Buffer[], ended: boolean) => void;

export class LocalReads {
  #served = 0;
  readonly #frame = replyFramers().get(RANGE)!;

  constructor(
    private readonly host: ReplicaHost,
    private readonly o: LocalReadsOptions,
  ) {}

  /** Whether `stream` is one this thread may answer (it then owns the stream until it forwards it). */
  takes(stream: H2Stream): boolean {
    const context = this.host.context;
    if (!this.host.possible || context === undefined || context.authEnabled) return false;
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
    const replica = this.host.wanted();
    if (req.key.length === 0 || replica === undefined || req.revision > replica.currentRevision) return false;
    const res = await replica.range(toRangeParams(req));
    const context = this.host.context;
    // The replica, or auth, may have changed during the read: answer only from the same replica, auth still off.
    if (!res.ok || stream.closed || replica !== this.host.replica || context === undefined || context.authEnabled) return false;
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
