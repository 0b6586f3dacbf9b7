/**
 * A token sent while auth is disabled, kvstore against the real etcd 3.4 side by side: each
 * call is made with no token, with an unknown simple-looking token and with garbage, on a
 * member that never enabled auth, and the outcomes (gRPC code + message; the JSON gateway's
 * status and body with the token as `Authorization`) must be the same.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { etcdVersion, startMember, type Member, type ServerKind } from '../support/processes.js';

type Done = (err: ServiceError | null) => void;
const OPTS = { 'grpc.use_local_subchannel_pool': 1 };

function outcome(call: (md: Metadata, opts: { deadline: number }, done: Done) => void, token: string | undefined): Promise<string> {
  const md = new Metadata();
  if (token !== undefined) md.set('token', token);
  return new Promise((resolve) => call(md, { deadline: Date.now() + 10_000 }, (err) => resolve(err ? `${err.code} ${err.details}` : 'ok')));
}

/** The first answer of a watch create on `key`: created / canceled (+ reason) / an error. */
function watchOutcome(w: pb.WatchClient, token: string | undefined): Promise<string> {
  const md = new Metadata();
  if (token !== undefined) md.set('token', token);
  return new Promise((resolve) => {
    const s = w.watch(md, { deadline: Date.now() + 10_000 });
    const end = (v: string): void => {
      resolve(v);
      s.cancel();
    };
    s.on('data', (r: pb.WatchResponse) => end(r.canceled ? `canceled ${r.cancelReason}` : r.created ? 'created' : 'event'));
    s.on('error', (e: ServiceError) => end(`${e.code} ${e.details}`));
    s.write({ requestUnion: { $case: 'createRequest', value: pb.WatchCreateRequest.fromJSON({ key: Buffer.from('k').toString('base64') }) } });
  });
}

/** A JSON gateway call with the token as the `Authorization` header: status and body, the header (revision, ids) masked. */
async function gatewayOutcome(m: Member, path: string, token: string | undefined): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = token;
  const res = await fetch(`${m.clientUrl}${path}`, { method: 'POST', headers, body: JSON.stringify({ key: 'aw==', value: 'dg==' }), signal: AbortSignal.timeout(10_000) });
  const body = (await res.text()).replace(/"header":\{[^}]*\}/, '"header":{…}');
  return `${res.status} ${body.trim()}`;
}

async function story(m: Member): Promise<string[]> {
  const kv = new pb.KVClient(m.endpoint, credentials.createInsecure(), OPTS);
  const lease = new pb.LeaseClient(m.endpoint, credentials.createInsecure(), OPTS);
  const cluster = new pb.ClusterClient(m.endpoint, credentials.createInsecure(), OPTS);
  const maint = new pb.MaintenanceClient(m.endpoint, credentials.createInsecure(), OPTS);
  const auth = new pb.AuthClient(m.endpoint, credentials.createInsecure(), OPTS);
  const watch = new pb.WatchClient(m.endpoint, credentials.createInsecure(), OPTS);
  const k = Buffer.from('k').toString('base64');
  const calls: Array<[string, (md: Metadata, o: { deadline: number }, d: Done) => void]> = [
    ['range', (md, o, d) => kv.range(pb.RangeRequest.fromJSON({ key: k }), md, o, d)],
    ['put', (md, o, d) => kv.put(pb.PutRequest.fromJSON({ key: k, value: k }), md, o, d)],
    ['txn read', (md, o, d) => kv.txn(pb.TxnRequest.fromJSON({}), md, o, d)],
    ['delete', (md, o, d) => kv.deleteRange(pb.DeleteRangeRequest.fromJSON({ key: Buffer.from('nothing').toString('base64') }), md, o, d)],
    ['compact', (md, o, d) => kv.compact(pb.CompactionRequest.fromJSON({ revision: '1' }), md, o, d)],
    ['lease grant', (md, o, d) => lease.leaseGrant(pb.LeaseGrantRequest.fromJSON({ TTL: '60' }), md, o, d)],
    ['lease revoke', (md, o, d) => lease.leaseRevoke(pb.LeaseRevokeRequest.fromJSON({ ID: '12345' }), md, o, d)],
    ['lease ttl', (md, o, d) => lease.leaseTimeToLive(pb.LeaseTimeToLiveRequest.fromJSON({ ID: '12345' }), md, o, d)],
    ['member list', (md, o, d) => cluster.memberList(pb.MemberListRequest.fromJSON({}), md, o, d)],
    ['member update', (md, o, d) => cluster.memberUpdate(pb.MemberUpdateRequest.fromJSON({ ID: '12345', peerURLs: ['http://127.0.0.1:1'] }), md, o, d)],
    ['defragment', (md, o, d) => maint.defragment(pb.DefragmentRequest.fromJSON({}), md, o, d)],
    ['status', (md, o, d) => maint.status(pb.StatusRequest.fromJSON({}), md, o, d)],
    ['alarm list', (md, o, d) => maint.alarm(pb.AlarmRequest.fromJSON({}), md, o, d)],
    ['hash', (md, o, d) => maint.hash(pb.HashRequest.fromJSON({}), md, o, d)],
    ['hashkv', (md, o, d) => maint.hashKv(pb.HashKVRequest.fromJSON({}), md, o, d)],
    ['user list', (md, o, d) => auth.userList(pb.AuthUserListRequest.fromJSON({}), md, o, d)],
    ['role add', (md, o, d) => auth.roleAdd(pb.AuthRoleAddRequest.fromJSON({ name: `r${Math.random().toString(36).slice(2, 8)}` }), md, o, d)],
    ['authenticate', (md, o, d) => auth.authenticate(pb.AuthenticateRequest.fromJSON({ name: 'x', password: 'y' }), md, o, d)],
  ];
  const out: string[] = [];
  try {
    for (const token of [undefined, 'abcdefghijklmnop.1', 'garbage']) {
      for (const [name, call] of calls) out.push(`${name} token=${token ?? '-'}: ${(await outcome(call, token)).replace(/role add r\w+/, 'role add')}`);
      out.push(`watch token=${token ?? '-'}: ${await watchOutcome(watch, token)}`);
      out.push(`gateway range token=${token ?? '-'}: ${await gatewayOutcome(m, '/v3/kv/range', token)}`);
      out.push(`gateway put token=${token ?? '-'}: ${await gatewayOutcome(m, '/v3/kv/put', token)}`);
    }
  } finally {
    for (const c of [kv, lease, cluster, maint, auth, watch]) c.close();
  }
  return out;
}

async function side(kind: ServerKind): Promise<string[]> {
  const env: Record<string, string> = kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {};
  const m = await startMember(kind, { env });
  try {
    return await story(m);
  } finally {
    await m.kill9();
  }
}

void describe(`a token while auth is disabled: kvstore vs etcd ${etcdVersion()}`, () => {
  void it('every call answers as the reference does', async () => {
    const [ref, sub] = await Promise.all([side('etcd'), side('kvstore')]);
    assert.deepEqual(sub, ref);
    assert.match(ref.join('\n'), /^put token=garbage: 16 etcdserver: invalid auth token$/m);
    assert.match(ref.join('\n'), /^gateway put token=garbage: 401 .*invalid auth token/m);
    assert.match(ref.join('\n'), /^gateway put token=-: 200 /m);
  });
});
