/**
 * The Maintenance API. Calls that describe one member (status, hash, hashKV, defragment,
 * moveLeader, snapshot) take `endpoint` in their call options to address that member; without
 * it they go to any endpoint of the list.
 *
 * `snapshot` yields the stream's chunks in order (the last chunk is etcd's 32-byte SHA-256
 * trailer); a failure is yielded as an error and ends the iteration. It reports
 * `opened snapshot stream; downloading` and `completed snapshot read; closing` to the logger.
 */
import type { ServiceError } from '@grpc/grpc-js';
import {
  AlarmRequest_AlarmAction,
  AlarmType as ProtoAlarmType,
  MaintenanceService,
  type AlarmResponse,
  type DefragmentResponse,
  type HashKVResponse,
  type HashResponse,
  type MoveLeaderResponse,
  type SnapshotResponse,
  type StatusResponse,
} from '../../proto/gen/etcd/rpc.js';
import type { CallOptions, Invoker } from './invoker.js';
import type { ClientLogger } from './options.js';
import type { Result } from './result.js';
import { cancelOnAbort } from './stream-util.js';

export const AlarmType = { None: 0, NoSpace: 1, Corrupt: 2 } as const;
export type AlarmType = (typeof AlarmType)[keyof typeof AlarmType];

export interface SnapshotChunk {
  readonly blob: Buffer;
  readonly remainingBytes: bigint;
}

export interface Maintenance {
  status(opts?: CallOptions): Promise<Result<StatusResponse>>;
  /** Active alarms (GET for every member and type). */
  alarmList(opts?: CallOptions): Promise<Result<AlarmResponse>>;
  /** Deactivates one alarm of one member. */
  alarmDisarm(memberID: bigint, alarm: AlarmType, opts?: CallOptions): Promise<Result<AlarmResponse>>;
  defragment(opts?: CallOptions): Promise<Result<DefragmentResponse>>;
  hash(opts?: CallOptions): Promise<Result<HashResponse>>;
  hashKV(revision: bigint, opts?: CallOptions): Promise<Result<HashKVResponse>>;
  moveLeader(targetID: bigint, opts?: CallOptions): Promise<Result<MoveLeaderResponse>>;
  snapshot(opts?: CallOptions): AsyncIterable<Result<SnapshotChunk>>;
}

export function makeMaintenance(inv: Invoker, logger: ClientLogger): Maintenance {
  return {
    status: (opts = {}) => inv.unary(MaintenanceService.status, {}, 'repeatable', opts),
    alarmList: (opts = {}) =>
      inv.unary(MaintenanceService.alarm, { action: AlarmRequest_AlarmAction.GET, memberID: 0n, alarm: ProtoAlarmType.NONE }, 'repeatable', opts),
    alarmDisarm: (memberID, alarm, opts = {}) =>
      inv.unary(MaintenanceService.alarm, { action: AlarmRequest_AlarmAction.DEACTIVATE, memberID, alarm: alarm as number as ProtoAlarmType }, 'mutable', opts),
    defragment: (opts = {}) => inv.unary(MaintenanceService.defragment, {}, 'mutable', opts),
    hash: (opts = {}) => inv.unary(MaintenanceService.hash, {}, 'repeatable', opts),
    hashKV: (revision, opts = {}) => inv.unary(MaintenanceService.hashKv, { revision }, 'repeatable', opts),
    moveLeader: (targetID, opts = {}) => inv.unary(MaintenanceService.moveLeader, { targetID }, 'mutable', opts),
    snapshot: (opts = {}) => snapshotChunks(inv, logger, opts),
  };
}

async function* snapshotChunks(inv: Invoker, logger: ClientLogger, opts: CallOptions): AsyncGenerator<Result<SnapshotChunk>> {
  const opened = await inv.serverStream(MaintenanceService.snapshot, {}, opts);
  if (!opened.ok) {
    yield opened;
    return;
  }
  const { stream, endpoint } = opened.value;
  const detach = cancelOnAbort(stream, opts.signal);
  logger.info?.('opened snapshot stream; downloading', {});
  try {
    for await (const res of stream as AsyncIterable<SnapshotResponse>) {
      yield { ok: true, value: { blob: res.blob, remainingBytes: res.remainingBytes } };
    }
    logger.info?.('completed snapshot read; closing', {});
  } catch (err) {
    yield { ok: false, error: inv.errorOf(err as ServiceError, endpoint, opts.signal) };
  } finally {
    detach();
    stream.cancel();
  }
}
