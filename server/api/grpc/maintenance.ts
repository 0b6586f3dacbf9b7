/**
 * etcdserverpb.Maintenance adapter: unary calls to the maintenance service, the Snapshot
 * server stream, and Downgrade (3.5 only) answered Unimplemented.
 *
 * Snapshot stream contract: chunks are written in the iterable's order; when the transport
 * buffer is full the next chunk is not pulled until it drains; if the client goes away
 * the iterable is closed early (its `return()` runs, releasing the pinned view); an
 * exception from the iterable ends the stream with code Unknown and its message.
 *
 * When the service hands out images (`snapshotImage`), a plain gRPC Snapshot call is served on
 * the HTTP/2 stream directly (`maintenanceStreams`, framed-stream.ts): the same checks in
 * the same order, the same messages, written as blocks of ready frames (snapshot-frames.ts).
 */
import type { handleServerStreamingCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import {
  MaintenanceService as MaintenanceDef,
  type SnapshotRequest,
  type SnapshotResponse,
} from '../../../proto/gen/etcd/rpc.js';
import type { Caller } from '../../auth/gate.js';
import type { SnapshotImage } from '../../snapshot/stream.js';
import type { MaintenanceService } from '../services.js';
import { GrpcCode, type GrpcStatus } from './codes.js';
import { lacksRequiredLeader, messageOf, type EdgeContext, type MetadataReader } from './context.js';
import { MalformedRequest, malformedStatus, type Incoming } from './decode-guard.js';
import { toStatus } from './error-table.js';
import { encodeSnapshotResponse } from './snapshot-reply.js';
import { StreamCall } from './stream-call.js';
import { unary } from './unary.js';
import { callerOf, gateOf } from './auth-gate.js';
import { unimplemented } from './unimplemented.js';
import type { FramedStatus, FramedStreamFunc, FramedStreamOut } from './framed-stream.js';
import type { RequestCall } from './request-message.js';
import { snapshotFrames } from './snapshot-frames.js';

/** The Maintenance service definition to register: Snapshot replies use the hand-written serializer. */
export const maintenanceService = {
  ...MaintenanceDef,
  snapshot: { ...MaintenanceDef.snapshot, responseSerialize: encodeSnapshotResponse },
} satisfies typeof MaintenanceDef;

export function maintenanceHandlers(ctx: EdgeContext, m: MaintenanceService): UntypedServiceImplementation {
  return {
    alarm: unary(ctx, MaintenanceDef.alarm, (r) => m.alarm(r)),
    status: unary(ctx, MaintenanceDef.status, (r) => m.status(r)),
    defragment: unary(ctx, MaintenanceDef.defragment, (r) => m.defragment(r)),
    hash: unary(ctx, MaintenanceDef.hash, (r) => m.hash(r)),
    hashKv: unary(ctx, MaintenanceDef.hashKv, (r) => m.hashKV(r)),
    snapshot: snapshotHandler(ctx, m),
    moveLeader: unary(ctx, MaintenanceDef.moveLeader, (r) => m.moveLeader(r)),
    downgrade: unimplemented(ctx, MaintenanceDef.downgrade),
  } satisfies Record<keyof typeof MaintenanceDef, unknown>;
}

/**
 * Why a Snapshot call is refused, in order: a request that did not decode, `hasleader` without
 * a leader, the auth gate (root only while auth is on); undefined: serve it. Both Snapshot paths
 * ask this.
 */
async function snapshotRefusal(ctx: EdgeContext, req: Incoming<SnapshotRequest>, metadata: MetadataReader, caller: () => Caller): Promise<GrpcStatus | undefined> {
  if (req instanceof MalformedRequest) return malformedStatus(req);
  if (lacksRequiredLeader(ctx, metadata)) return toStatus({ kind: 'NoLeader' });
  const denied = await gateOf(ctx, metadata)?.check(MaintenanceDef.snapshot.path, req, caller());
  return denied === undefined ? undefined : toStatus(denied);
}

function snapshotHandler(
  ctx: EdgeContext,
  m: MaintenanceService,
): handleServerStreamingCall<Incoming<SnapshotRequest>, SnapshotResponse> {
  const tally = ctx.metrics.method(MaintenanceDef.snapshot);
  return (call) => {
    const stream = new StreamCall<SnapshotResponse>(call, tally);
    tally.received += 1;
    const pump = async (): Promise<void> => {
      const refused = await snapshotRefusal(ctx, call.request, call.metadata, () => callerOf(call));
      if (refused !== undefined) return stream.fail(refused);
      for await (const chunk of m.snapshot(call.request as SnapshotRequest)) {
        if (!stream.open) break;
        if (!stream.write(chunk)) await stream.drained();
        if (!stream.open) break;
      }
      stream.end();
    };
    pump().catch((e: unknown) => {
      ctx.logger.error({ err: e }, 'snapshot stream failed');
      stream.fail({ code: GrpcCode.Unknown, message: messageOf(e) });
    });
  };
}

/** Server streams served on HTTP/2 directly (h2-calls.ts `streams`): Snapshot, when the service hands out images. */
export function maintenanceStreams(ctx: EdgeContext, m: MaintenanceService): Map<string, FramedStreamFunc> {
  const stage = m.snapshotImage?.bind(m);
  if (stage === undefined) return new Map();
  const tally = ctx.metrics.method(MaintenanceDef.snapshot);
  const serve: FramedStreamFunc = async (call, out) => {
    tally.started += 1;
    tally.received += 1;
    const status = await framedSnapshot(ctx, stage, call, out, (messages) => (tally.sent += messages));
    tally.handle(status?.code ?? (out.open ? GrpcCode.OK : GrpcCode.Canceled));
    return status;
  };
  return new Map([[MaintenanceDef.snapshot.path, serve]]);
}

async function framedSnapshot(
  ctx: EdgeContext,
  stage: (req: SnapshotRequest) => Promise<SnapshotImage>,
  call: RequestCall,
  out: FramedStreamOut,
  counted: (messages: number) => void,
): Promise<FramedStatus | undefined> {
  try {
    const req = call.request as Incoming<SnapshotRequest>;
    const refused = await snapshotRefusal(ctx, req, call.metadata, () => callerOf(call as unknown as Parameters<typeof callerOf>[0]));
    if (refused !== undefined) return { code: refused.code, details: refused.message };
    // A client that cancelled while the call was checked costs no image (a burst of Snapshot
    // calls cancelled at once must not make the member stage one image each).
    if (!out.open) return undefined;
    const image = await stage(req as SnapshotRequest);
    try {
      for await (const block of snapshotFrames(image)) {
        if (!out.open) break;
        counted(block.messages);
        await out.write(block.frames);
      }
      if (out.open) image.sent();
    } finally {
      await image.close();
    }
    return undefined;
  } catch (e) {
    ctx.logger.error({ err: e }, 'snapshot stream failed');
    return { code: GrpcCode.Unknown, details: messageOf(e) };
  }
}
