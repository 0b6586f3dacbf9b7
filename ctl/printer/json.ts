/**
 * The `json` format: the answer as Go's encoding/json writes etcd's structs (see go-json.ts).
 * Lease answers are etcd client structs with the header embedded (its fields at top level);
 * watch answers use the client's exported field names (`Header`, `Events`, …); endpoint
 * commands print lists of `{Endpoint, Status|HashKV}` / `{endpoint, health, took, error}`.
 */
import type { Event, KeyValue } from '../../proto/gen/etcd/kv.js';
import type {
  DeleteRangeResponse,
  HashKVResponse,
  Member,
  PutResponse,
  RangeResponse,
  ResponseHeader,
  ResponseOp,
  StatusResponse,
  TxnResponse,
} from '../../proto/gen/etcd/rpc.js';
import { goJson, keep, obj, omit, type GoField, type GoObject, type GoValue } from './go-json.js';
import type { PartialPrinter, PrinterOptions } from './printer.js';

const headerFields = (h: ResponseHeader | undefined): GoField[] =>
  h === undefined ? [] : [omit('cluster_id', h.clusterId), omit('member_id', h.memberId), omit('revision', h.revision), omit('raft_term', h.raftTerm)];
const header = (h: ResponseHeader | undefined): GoObject | undefined => (h === undefined ? undefined : obj(...headerFields(h)));

const kvJ = (kv: KeyValue | undefined): GoObject | undefined =>
  kv === undefined
    ? undefined
    : obj(omit('key', kv.key), omit('create_revision', kv.createRevision), omit('mod_revision', kv.modRevision), omit('version', kv.version), omit('value', kv.value), omit('lease', kv.lease));

const eventJ = (e: Event): GoObject => obj(omit('type', e.type), omit('kv', kvJ(e.kv)), omit('prev_kv', kvJ(e.prevKv)));

const rangeJ = (r: RangeResponse): GoObject =>
  obj(omit('header', header(r.header)), omit('kvs', r.kvs.map((k) => kvJ(k) ?? null)), omit('more', r.more), omit('count', r.count));
const putJ = (r: PutResponse): GoObject => obj(omit('header', header(r.header)), omit('prev_kv', kvJ(r.prevKv)));
const delJ = (r: DeleteRangeResponse): GoObject =>
  obj(omit('header', header(r.header)), omit('deleted', r.deleted), omit('prev_kvs', r.prevKvs.map((k) => kvJ(k) ?? null)));

function responseOpJ(op: ResponseOp): GoObject {
  const r = op.response;
  let inner: GoObject | null = null;
  if (r?.$case === 'responseRange') inner = obj(keep('ResponseRange', rangeJ(r.value)));
  else if (r?.$case === 'responsePut') inner = obj(keep('ResponsePut', putJ(r.value)));
  else if (r?.$case === 'responseDeleteRange') inner = obj(keep('ResponseDeleteRange', delJ(r.value)));
  else if (r?.$case === 'responseTxn') inner = obj(keep('ResponseTxn', txnJ(r.value)));
  return obj(keep('Response', inner));
}
function txnJ(r: TxnResponse): GoObject {
  return obj(omit('header', header(r.header)), omit('succeeded', r.succeeded), omit('responses', r.responses.map(responseOpJ)));
}

const memberJ = (m: Member | undefined): GoObject | undefined =>
  m === undefined ? undefined : obj(omit('ID', m.ID), omit('name', m.name), omit('peerURLs', m.peerURLs), omit('clientURLs', m.clientURLs), omit('isLearner', m.isLearner));
const membersJ = (ms: readonly Member[]): GoValue[] => ms.map((m) => memberJ(m) ?? null);

const statusJ = (s: StatusResponse): GoObject =>
  obj(
    omit('header', header(s.header)),
    omit('version', s.version),
    omit('dbSize', s.dbSize),
    omit('leader', s.leader),
    omit('raftIndex', s.raftIndex),
    omit('raftTerm', s.raftTerm),
    omit('raftAppliedIndex', s.raftAppliedIndex),
    omit('errors', s.errors),
    omit('dbSizeInUse', s.dbSizeInUse),
    omit('isLearner', s.isLearner),
  );
const hashKVJ = (h: HashKVResponse): GoObject => obj(omit('header', header(h.header)), omit('hash', h.hash), omit('compact_revision', h.compactRevision));

export function jsonPrinter(o: PrinterOptions): PartialPrinter {
  const print = (v: GoValue): undefined => {
    o.out.write(`${goJson(v)}\n`);
    return undefined;
  };
  return {
    get: (r) => print(rangeJ(r)),
    put: (r) => print(putJ(r)),
    del: (r) => print(delJ(r)),
    txn: (r) => print(txnJ(r)),
    watch: (r) =>
      print(
        obj(
          keep('Header', obj(...headerFields(r.header))),
          keep('Events', r.events.map(eventJ)),
          keep('CompactRevision', r.compactRevision),
          keep('Canceled', r.canceled),
          keep('Created', r.created),
        ),
      ),
    grant: (r) => print(obj(...headerFields(r.header), keep('ID', r.ID), keep('TTL', r.TTL), keep('Error', r.error))),
    revoke: (_id, r) => print(obj(omit('header', header(r.header)))),
    keepAlive: (r) => print(obj(...headerFields(r.header), keep('ID', r.ID), keep('TTL', r.TTL))),
    timeToLive: (r) =>
      print(
        obj(
          ...headerFields(r.header),
          keep('id', r.ID),
          keep('ttl', r.TTL),
          keep('granted-ttl', r.grantedTTL),
          keep('keys', r.keys.length === 0 ? null : r.keys),
        ),
      ),
    leases: (r) => print(obj(...headerFields(r.header), keep('leases', r.leases.map((l) => obj(keep('id', l.ID)))))),
    memberAdd: (r) => print(obj(omit('header', header(r.header)), omit('member', memberJ(r.member)), omit('members', membersJ(r.members)))),
    memberRemove: (_id, r) => print(obj(omit('header', header(r.header)), omit('members', membersJ(r.members)))),
    memberUpdate: (_id, r) => print(obj(omit('header', header(r.header)), omit('members', membersJ(r.members)))),
    memberPromote: (_id, r) => print(obj(omit('header', header(r.header)), omit('members', membersJ(r.members)))),
    memberList: (r) => print(obj(omit('header', header(r.header)), omit('members', membersJ(r.members)))),
    endpointHealth: (hs) => print(hs.map((h) => obj(keep('endpoint', h.ep), keep('health', h.health), keep('took', h.took), omit('error', h.error)))),
    endpointStatus: (ss) => print(ss.map((s) => obj(keep('Endpoint', s.ep), keep('Status', statusJ(s.resp))))),
    endpointHashKV: (hs) => print(hs.map((h) => obj(keep('Endpoint', h.ep), keep('HashKV', hashKVJ(h.resp))))),
    moveLeader: (_l, _t, r) => print(obj(omit('header', header(r.header)))),
    alarm: (r) => print(obj(omit('header', header(r.header)), omit('alarms', r.alarms.map((a) => obj(omit('memberID', a.memberID), omit('alarm', a.alarm)))))),
  };
}
