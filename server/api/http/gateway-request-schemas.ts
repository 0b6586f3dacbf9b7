/**
 * The request messages of every gateway route (rpc.proto, package etcdserverpb), as jsonpb field
 * tables (jsonpb-schema.ts). Enum Go type names are those of the reference's generated Go code
 * (`etcdserverpb.RangeRequest_SortOrder`), which appear in its error texts.
 * A unit test checks each table against the generated message codec (same fields, same names).
 */
import { enumKind, field, message, messageKind, type MessageSchema } from './jsonpb-schema.js';

const sortOrder = enumKind('etcdserverpb.RangeRequest_SortOrder', ['NONE', 'ASCEND', 'DESCEND']);
const sortTarget = enumKind('etcdserverpb.RangeRequest_SortTarget', ['KEY', 'VERSION', 'CREATE', 'MOD', 'VALUE']);
const compareResult = enumKind('etcdserverpb.Compare_CompareResult', ['EQUAL', 'GREATER', 'LESS', 'NOT_EQUAL']);
const compareTarget = enumKind('etcdserverpb.Compare_CompareTarget', ['VERSION', 'CREATE', 'MOD', 'VALUE', 'LEASE']);
const filterType = enumKind('etcdserverpb.WatchCreateRequest_FilterType', ['NOPUT', 'NODELETE']);
const alarmAction = enumKind('etcdserverpb.AlarmRequest_AlarmAction', ['GET', 'ACTIVATE', 'DEACTIVATE']);
const alarmType = enumKind('etcdserverpb.AlarmType', ['NONE', 'NOSPACE', 'CORRUPT']);

const EMPTY: MessageSchema = message();

export const RangeRequest: MessageSchema = message(
  field('key', 'bytes'),
  field('range_end', 'bytes'),
  field('limit', 'int64'),
  field('revision', 'int64'),
  field('sort_order', sortOrder),
  field('sort_target', sortTarget),
  field('serializable', 'bool'),
  field('keys_only', 'bool'),
  field('count_only', 'bool'),
  field('min_mod_revision', 'int64'),
  field('max_mod_revision', 'int64'),
  field('min_create_revision', 'int64'),
  field('max_create_revision', 'int64'),
);

export const PutRequest: MessageSchema = message(
  field('key', 'bytes'),
  field('value', 'bytes'),
  field('lease', 'int64'),
  field('prev_kv', 'bool'),
  field('ignore_value', 'bool'),
  field('ignore_lease', 'bool'),
);

export const DeleteRangeRequest: MessageSchema = message(
  field('key', 'bytes'),
  field('range_end', 'bytes'),
  field('prev_kv', 'bool'),
);

export const Compare: MessageSchema = message(
  field('result', compareResult),
  field('target', compareTarget),
  field('key', 'bytes'),
  field('version', 'int64', { oneof: true }),
  field('create_revision', 'int64', { oneof: true }),
  field('mod_revision', 'int64', { oneof: true }),
  field('value', 'bytes', { oneof: true }),
  field('lease', 'int64', { oneof: true }),
  field('range_end', 'bytes'),
);

export const RequestOp: MessageSchema = message(
  field('request_range', messageKind(() => RangeRequest), { oneof: true }),
  field('request_put', messageKind(() => PutRequest), { oneof: true }),
  field('request_delete_range', messageKind(() => DeleteRangeRequest), { oneof: true }),
  field('request_txn', messageKind(() => TxnRequest), { oneof: true }),
);

export const TxnRequest: MessageSchema = message(
  field('compare', messageKind(() => Compare), { repeated: true }),
  field('success', messageKind(() => RequestOp), { repeated: true }),
  field('failure', messageKind(() => RequestOp), { repeated: true }),
);

export const CompactionRequest: MessageSchema = message(field('revision', 'int64'), field('physical', 'bool'));

export const WatchCreateRequest: MessageSchema = message(
  field('key', 'bytes'),
  field('range_end', 'bytes'),
  field('start_revision', 'int64'),
  field('progress_notify', 'bool'),
  field('filters', filterType, { repeated: true }),
  field('prev_kv', 'bool'),
  field('watch_id', 'int64'),
  field('fragment', 'bool'),
);

export const WatchCancelRequest: MessageSchema = message(field('watch_id', 'int64'));

export const WatchRequest: MessageSchema = message(
  field('create_request', messageKind(() => WatchCreateRequest), { oneof: true }),
  field('cancel_request', messageKind(() => WatchCancelRequest), { oneof: true }),
  field('progress_request', messageKind(() => EMPTY), { oneof: true }),
);

export const LeaseGrantRequest: MessageSchema = message(field('TTL', 'int64'), field('ID', 'int64'));
export const LeaseRevokeRequest: MessageSchema = message(field('ID', 'int64'));
export const LeaseKeepAliveRequest: MessageSchema = message(field('ID', 'int64'));
export const LeaseTimeToLiveRequest: MessageSchema = message(field('ID', 'int64'), field('keys', 'bool'));
export const LeaseLeasesRequest: MessageSchema = EMPTY;

export const MemberAddRequest: MessageSchema = message(
  field('peerURLs', 'string', { repeated: true }),
  field('isLearner', 'bool'),
);
export const MemberRemoveRequest: MessageSchema = message(field('ID', 'uint64'));
export const MemberUpdateRequest: MessageSchema = message(
  field('ID', 'uint64'),
  field('peerURLs', 'string', { repeated: true }),
);
export const MemberListRequest: MessageSchema = message(field('linearizable', 'bool'));
export const MemberPromoteRequest: MessageSchema = message(field('ID', 'uint64'));

export const AlarmRequest: MessageSchema = message(
  field('action', alarmAction),
  field('memberID', 'uint64'),
  field('alarm', alarmType),
);
export const StatusRequest: MessageSchema = EMPTY;
export const DefragmentRequest: MessageSchema = EMPTY;
export const HashRequest: MessageSchema = EMPTY;
export const HashKVRequest: MessageSchema = message(field('revision', 'int64'));
export const SnapshotRequest: MessageSchema = EMPTY;
export const MoveLeaderRequest: MessageSchema = message(field('targetID', 'uint64'));
