/**
 * The `protobuf` format: the answer's wire encoding, written raw (no newline). As in etcdctl,
 * lease grant/keep-alive/time-to-live/list answers print only their header (the client structs
 * embed the header, whose encoder is what gets called); endpoint commands are not supported.
 */
import {
  AlarmResponse,
  DeleteRangeResponse,
  LeaseRevokeResponse,
  MemberAddResponse,
  MemberListResponse,
  MemberPromoteResponse,
  MemberRemoveResponse,
  MemberUpdateResponse,
  MoveLeaderResponse,
  PutResponse,
  RangeResponse,
  ResponseHeader,
  TxnResponse,
  WatchResponse,
} from '../../proto/gen/etcd/rpc.js';
import type { PartialPrinter, PrinterOptions } from './printer.js';

interface Encoder<T> {
  encode(message: T): { finish(): Uint8Array };
}

const ZERO: ResponseHeader = { clusterId: 0n, memberId: 0n, revision: 0n, raftTerm: 0n };

export function protobufPrinter(o: PrinterOptions): PartialPrinter {
  const emit = <T>(enc: Encoder<T>, m: T): undefined => {
    o.out.write(enc.encode(m).finish());
    return undefined;
  };
  const headerOnly = (h: ResponseHeader | undefined): undefined => emit(ResponseHeader, h ?? ZERO);
  return {
    get: (r) => emit(RangeResponse, r),
    put: (r) => emit(PutResponse, r),
    del: (r) => emit(DeleteRangeResponse, r),
    txn: (r) => emit(TxnResponse, r),
    watch: (r) =>
      emit(WatchResponse, {
        header: r.header,
        watchId: 0n,
        created: r.created,
        canceled: r.canceled,
        compactRevision: r.compactRevision,
        cancelReason: '',
        fragment: false,
        events: [...r.events],
      }),
    grant: (r) => headerOnly(r.header),
    revoke: (_id, r) => emit(LeaseRevokeResponse, r),
    keepAlive: (r) => headerOnly(r.header),
    timeToLive: (r) => headerOnly(r.header),
    leases: (r) => headerOnly(r.header),
    memberAdd: (r) => emit(MemberAddResponse, r),
    memberRemove: (_id, r) => emit(MemberRemoveResponse, r),
    memberUpdate: (_id, r) => emit(MemberUpdateResponse, r),
    memberPromote: (_id, r) => emit(MemberPromoteResponse, r),
    memberList: (r) => emit(MemberListResponse, r),
    moveLeader: (_l, _t, r) => emit(MoveLeaderResponse, r),
    alarm: (r) => emit(AlarmResponse, r),
  };
}
