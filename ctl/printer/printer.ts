/**
 * What commands print, per response type, and the choice of writer by `-w/--write-out`.
 *
 * Each writer (simple, json, fields, table, protobuf) implements the methods its format
 * supports; a missing method fails like etcdctl: `<format> not supported as output format`,
 * exit code 4 (ExitBadFeature). The check happens when printing, i.e. after the request.
 */
import type { KeyValue } from '../../proto/gen/etcd/kv.js';
import type {
  AlarmResponse,
  DeleteRangeResponse,
  HashKVResponse,
  LeaseGrantResponse,
  LeaseKeepAliveResponse,
  LeaseLeasesResponse,
  LeaseRevokeResponse,
  LeaseTimeToLiveResponse,
  MemberAddResponse,
  MemberListResponse,
  MemberPromoteResponse,
  MemberRemoveResponse,
  MemberUpdateResponse,
  MoveLeaderResponse,
  PutResponse,
  RangeResponse,
  StatusResponse,
  TxnResponse,
} from '../../proto/gen/etcd/rpc.js';
import type { WatchUpdate } from '../client/index.js';
import { ExitCode } from '../cli/exit-codes.js';
import type { Output } from '../cli/io.js';

/** One row of `endpoint health`. */
export interface EpHealth {
  readonly ep: string;
  readonly health: boolean;
  /** Go duration text, empty when the client could not be created. */
  readonly took: string;
  /** Empty when healthy. */
  readonly error: string;
}
export interface EpStatus {
  readonly ep: string;
  readonly resp: StatusResponse;
}
export interface EpHashKV {
  readonly ep: string;
  readonly resp: HashKVResponse;
}

/** A printing failure: the message for `Error: …` and the exit code. */
export interface PrintFailure {
  readonly code: ExitCode;
  readonly message: string;
}
export type PrintOutcome = PrintFailure | undefined;

export interface Printer {
  put(r: PutResponse): PrintOutcome;
  get(r: RangeResponse): PrintOutcome;
  del(r: DeleteRangeResponse): PrintOutcome;
  txn(r: TxnResponse): PrintOutcome;
  watch(r: WatchUpdate): PrintOutcome;
  grant(r: LeaseGrantResponse): PrintOutcome;
  revoke(id: bigint, r: LeaseRevokeResponse): PrintOutcome;
  keepAlive(r: LeaseKeepAliveResponse): PrintOutcome;
  timeToLive(r: LeaseTimeToLiveResponse, keys: boolean): PrintOutcome;
  leases(r: LeaseLeasesResponse): PrintOutcome;
  memberAdd(r: MemberAddResponse): PrintOutcome;
  memberRemove(id: bigint, r: MemberRemoveResponse): PrintOutcome;
  memberUpdate(id: bigint, r: MemberUpdateResponse): PrintOutcome;
  memberPromote(id: bigint, r: MemberPromoteResponse): PrintOutcome;
  memberList(r: MemberListResponse): PrintOutcome;
  endpointHealth(hs: readonly EpHealth[]): PrintOutcome;
  endpointStatus(ss: readonly EpStatus[]): PrintOutcome;
  endpointHashKV(hs: readonly EpHashKV[]): PrintOutcome;
  moveLeader(leader: bigint, target: bigint, r: MoveLeaderResponse): PrintOutcome;
  alarm(r: AlarmResponse): PrintOutcome;
}

/** Options every writer gets. */
export interface PrinterOptions {
  readonly out: Output;
  /** Where `endpoint health` writes in the simple format. */
  readonly err: Output;
  /** `--hex`: keys and values as `\xNN` sequences (simple format). */
  readonly hex: boolean;
  /** `--print-value-only` (simple format). */
  readonly valueOnly: boolean;
}

/** A writer: the methods its format supports. */
export type PartialPrinter = Partial<Printer>;

const METHODS: readonly (keyof Printer)[] = [
  'put', 'get', 'del', 'txn', 'watch', 'grant', 'revoke', 'keepAlive', 'timeToLive', 'leases', 'memberAdd', 'memberRemove', 'memberUpdate',
  'memberPromote', 'memberList', 'endpointHealth', 'endpointStatus', 'endpointHashKV', 'moveLeader', 'alarm',
];

/** Completes a partial writer: unsupported methods fail with etcdctl's message. */
export function complete(format: string, partial: PartialPrinter): Printer {
  const unsupported = (): PrintOutcome => ({ code: ExitCode.BadFeature, message: `${format} not supported as output format` });
  const out: Record<string, unknown> = {};
  for (const m of METHODS) out[m] = partial[m]?.bind(partial) ?? unsupported;
  return out as unknown as Printer;
}

export type { KeyValue };
