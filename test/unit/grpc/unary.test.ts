// Unary calls through the real server: OK replies, every error kind's code/message,
// hasleader, malformed frames, oversized frames, Unimplemented services, health.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { LockClient, LockRequest, LockService } from '../../../proto/gen/etcd/lock.js';
import { ElectionClient, ElectionService, LeaderRequest } from '../../../proto/gen/etcd/election.js';
import {
  HealthCheckRequest,
  HealthCheckResponse_ServingStatus,
  HealthClient,
  HealthService,
} from '../../../proto/gen/etcd/health.js';
import { ErrorKind, fail, type DomainError } from '../../../server/errors/domain-error.js';
import { toStatus } from '../../../server/api/grpc/error-table.js';
import { call, header, MAX_RECV_BYTES, msg, requireLeader, startServer, type Harness } from './harness.js';

let h: Harness;
let kv: pb.KVClient;
before(async () => {
  h = await startServer();
  kv = new pb.KVClient(h.address, h.creds);
});
after(async () => {
  kv.close();
  await h.close();
});

const put = (key = 'foo', value: Buffer = Buffer.from('bar')) => msg(pb.PutRequest, { key: Buffer.from(key), value });

void test('unary OK: the service reply arrives intact and the request reaches the service', async () => {
  let seen: pb.PutRequest | undefined;
  const original = h.services.kv.put;
  h.services.kv.put = (r) => {
    seen = r;
    return original(r);
  };
  try {
    const { error, response } = await call(kv, pb.KVService.put, put('k1', Buffer.from('v1')));
    assert.equal(error, null);
    assert.deepEqual(response?.header, header());
    assert.deepEqual(seen?.key, Buffer.from('k1'));
    assert.deepEqual(seen?.value, Buffer.from('v1'));
  } finally {
    h.services.kv.put = original;
  }
});

void test('each domain error arrives with its gRPC code and exact message', async () => {
  const original = h.services.kv.put;
  try {
    for (const kind of Object.values(ErrorKind)) {
      const error: DomainError =
        kind === 'Compacted'
          ? { kind, compactRevision: 3n }
          : kind === 'FutureRev'
            ? { kind, currentRevision: 3n }
            : kind === 'Internal'
              ? { kind, message: 'etcdserver: request cancelled' }
              : kind === 'Unimplemented'
                ? { kind, method: 'X' }
                : { kind };
      h.services.kv.put = () => Promise.resolve(fail(error));
      const r = await call(kv, pb.KVService.put, put());
      const expected = toStatus(error);
      assert.equal(r.error?.code, expected.code, kind);
      assert.equal(r.error?.details, expected.message, kind);
    }
  } finally {
    h.services.kv.put = original;
  }
});

void test('a rejected service promise becomes Unknown with its message; the server keeps serving', async () => {
  const original = h.services.kv.range;
  h.services.kv.range = () => Promise.reject(new Error('boom'));
  try {
    const r = await call(kv, pb.KVService.range, msg(pb.RangeRequest, { key: Buffer.from('a') }));
    assert.equal(r.error?.code, grpc.status.UNKNOWN);
    assert.equal(r.error?.details, 'boom');
  } finally {
    h.services.kv.range = original;
  }
  assert.equal((await call(kv, pb.KVService.range, msg(pb.RangeRequest, { key: Buffer.from('a') }))).error, null);
});

void test('hasleader=true fails with NoLeader only when there is no leader', async () => {
  h.leader = false;
  try {
    const r = await call(kv, pb.KVService.range, msg(pb.RangeRequest, { key: Buffer.from('a') }), requireLeader());
    assert.equal(r.error?.code, grpc.status.UNAVAILABLE);
    assert.equal(r.error?.details, 'etcdserver: no leader');
    const withoutMd = await call(kv, pb.KVService.range, msg(pb.RangeRequest, { key: Buffer.from('a') }));
    assert.equal(withoutMd.error, null);
  } finally {
    h.leader = true;
  }
  const withLeader = await call(kv, pb.KVService.range, msg(pb.RangeRequest, { key: Buffer.from('a') }), requireLeader());
  assert.equal(withLeader.error, null);
});

void test('a request frame that does not decode gets a clean Internal status and never reaches the service', async () => {
  let calls = 0;
  const original = h.services.kv.put;
  h.services.kv.put = (r) => {
    calls += 1;
    return original(r);
  };
  const raw = new grpc.Client(h.address, h.creds);
  try {
    const r = await new Promise<grpc.ServiceError | null>((resolve) =>
      raw.makeUnaryRequest(
        '/etcdserverpb.KV/Put',
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.from([0x0f]),
        (e) => resolve(e),
      ),
    );
    assert.equal(r?.code, grpc.status.INTERNAL);
    assert.equal(r?.details, 'grpc: error unmarshalling request: cant skip wire type 7');
    assert.equal(calls, 0);
  } finally {
    raw.close();
    h.services.kv.put = original;
  }
  assert.equal((await call(kv, pb.KVService.put, put())).error, null);
});

void test('a frame above the receive limit is refused with ResourceExhausted', async () => {
  const r = await call(kv, pb.KVService.put, put('big', Buffer.alloc(MAX_RECV_BYTES + 1024)));
  assert.equal(r.error?.code, grpc.status.RESOURCE_EXHAUSTED);
  assert.equal((await call(kv, pb.KVService.put, put('small', Buffer.alloc(1024)))).error, null);
});

void test('Auth and Downgrade answer Unimplemented with a clear message; Lock and Election run their recipes', async () => {
  const auth = new pb.AuthClient(h.address, h.creds);
  const lock = new LockClient(h.address, h.creds);
  const election = new ElectionClient(h.address, h.creds);
  const maintenance = new pb.MaintenanceClient(h.address, h.creds);
  try {
    const a = await call(auth, pb.AuthService.userAdd, msg(pb.AuthUserAddRequest, { name: 'root' }));
    assert.equal(a.error?.code, grpc.status.UNIMPLEMENTED);
    assert.equal(a.error?.details, 'kvstore: not implemented: /etcdserverpb.Auth/UserAdd');
    const s = await call(auth, pb.AuthService.authStatus, msg(pb.AuthStatusRequest));
    assert.equal(s.error?.code, grpc.status.UNIMPLEMENTED);
    const l = await call(lock, LockService.lock, msg(LockRequest, { name: Buffer.from('l'), lease: 0x2an }));
    assert.equal(l.error, null);
    assert.equal(l.response?.key.toString(), 'l/2a');
    const d = await call(maintenance, pb.MaintenanceService.downgrade, msg(pb.DowngradeRequest));
    assert.equal(d.error?.code, grpc.status.UNIMPLEMENTED);
    const leader = await call(election, ElectionService.leader, msg(LeaderRequest, { name: Buffer.from('e') }));
    assert.equal(leader.error?.code, grpc.status.UNKNOWN);
    assert.equal(leader.error?.details, 'election: no leader');
  } finally {
    for (const c of [auth, lock, election, maintenance]) c.close();
  }
});

void test('maintenance and cluster unary calls reach their services', async () => {
  const maintenance = new pb.MaintenanceClient(h.address, h.creds);
  const cluster = new pb.ClusterClient(h.address, h.creds);
  try {
    assert.equal((await call(maintenance, pb.MaintenanceService.status, msg(pb.StatusRequest))).response?.version, '3.4.0');
    assert.equal((await call(maintenance, pb.MaintenanceService.hashKv, msg(pb.HashKVRequest))).response?.hash, 43);
    assert.deepEqual((await call(cluster, pb.ClusterService.memberList, msg(pb.MemberListRequest))).response?.header, header());
  } finally {
    maintenance.close();
    cluster.close();
  }
});

void test('health: service "" is SERVING, anything else is unknown', async () => {
  const health = new HealthClient(h.address, h.creds);
  try {
    const ok = await call(health, HealthService.check, { service: '' } satisfies HealthCheckRequest);
    assert.equal(ok.response?.status, HealthCheckResponse_ServingStatus.SERVING);
    const unknown = await call(health, HealthService.check, { service: 'nope' });
    assert.equal(unknown.error?.code, grpc.status.NOT_FOUND);
    assert.equal(unknown.error?.details, 'unknown service');
    const watch = health.watch({ service: '' });
    const first = await new Promise((resolve) => watch.once('data', resolve));
    assert.deepEqual(first, { status: HealthCheckResponse_ServingStatus.SERVING });
    watch.on('error', () => undefined);
    watch.cancel();
  } finally {
    health.close();
  }
});
