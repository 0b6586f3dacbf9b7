// grpc_server_* metrics: zero-valued series for every registered method from the start,
// then started/handled/msg counts per call.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { fail } from '../../../server/errors/domain-error.js';
import { call, counterValue, msg, startServer, statusOf, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startServer();
});
after(async () => {
  await h.close();
});

const range = { grpc_type: 'unary', grpc_service: 'etcdserverpb.KV', grpc_method: 'Range' };

void test('every registered method has zero-valued series at start, handled for all 17 codes', async () => {
  assert.equal(await counterValue(h.registry, 'grpc_server_started_total', range), 0);
  assert.equal(await counterValue(h.registry, 'grpc_server_msg_received_total', range), 0);
  assert.equal(await counterValue(h.registry, 'grpc_server_msg_sent_total', range), 0);
  for (const code of ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'OutOfRange', 'Unavailable', 'DataLoss', 'Unauthenticated']) {
    assert.equal(await counterValue(h.registry, 'grpc_server_handled_total', { ...range, grpc_code: code }), 0, code);
  }
  const handled = (await h.registry.getSingleMetric('grpc_server_handled_total')!.get()).values;
  assert.equal(handled.filter((v) => v.labels.grpc_method === 'Range').length, 17);
  const series: Array<[string, string, string]> = [
    ['bidi_stream', 'etcdserverpb.Watch', 'Watch'],
    ['bidi_stream', 'etcdserverpb.Lease', 'LeaseKeepAlive'],
    ['server_stream', 'etcdserverpb.Maintenance', 'Snapshot'],
    ['unary', 'etcdserverpb.Auth', 'UserAdd'],
    ['unary', 'etcdserverpb.Cluster', 'MemberList'],
    ['unary', 'v3lockpb.Lock', 'Lock'],
    ['server_stream', 'v3electionpb.Election', 'Observe'],
    ['unary', 'grpc.health.v1.Health', 'Check'],
  ];
  for (const [grpc_type, grpc_service, grpc_method] of series) {
    assert.equal(await counterValue(h.registry, 'grpc_server_started_total', { grpc_type, grpc_service, grpc_method }), 0, grpc_method);
  }
  const text = await h.registry.metrics();
  assert.match(text, /grpc_server_handled_total\{grpc_type="unary",grpc_service="etcdserverpb.KV",grpc_method="Range",grpc_code="OK"\} 0/);
});

void test('unary calls count start, messages and the handled code', async () => {
  const kv = new pb.KVClient(h.address, h.creds);
  const original = h.services.kv.range;
  try {
    await call(kv, pb.KVService.range, msg(pb.RangeRequest, { key: Buffer.from('a') }));
    h.services.kv.range = () => Promise.resolve(fail({ kind: 'Compacted', compactRevision: 1n }));
    await call(kv, pb.KVService.range, msg(pb.RangeRequest, { key: Buffer.from('a') }));
  } finally {
    h.services.kv.range = original;
    kv.close();
  }
  assert.equal(await counterValue(h.registry, 'grpc_server_started_total', range), 2);
  assert.equal(await counterValue(h.registry, 'grpc_server_msg_received_total', range), 2);
  assert.equal(await counterValue(h.registry, 'grpc_server_msg_sent_total', range), 1);
  assert.equal(await counterValue(h.registry, 'grpc_server_handled_total', { ...range, grpc_code: 'OK' }), 1);
  assert.equal(await counterValue(h.registry, 'grpc_server_handled_total', { ...range, grpc_code: 'OutOfRange' }), 1);
});

void test('streams count each message and one handled code', async () => {
  const lease = new pb.LeaseClient(h.address, h.creds);
  try {
    const stream = lease.leaseKeepAlive();
    stream.on('error', () => undefined);
    stream.on('data', () => undefined);
    const status = statusOf(stream);
    stream.write({ ID: 1n });
    stream.write({ ID: 2n });
    stream.end();
    await status;
  } finally {
    lease.close();
  }
  const ka = { grpc_type: 'bidi_stream', grpc_service: 'etcdserverpb.Lease', grpc_method: 'LeaseKeepAlive' };
  assert.equal(await counterValue(h.registry, 'grpc_server_started_total', ka), 1);
  assert.equal(await counterValue(h.registry, 'grpc_server_msg_received_total', ka), 2);
  assert.equal(await counterValue(h.registry, 'grpc_server_msg_sent_total', ka), 2);
  assert.equal(await counterValue(h.registry, 'grpc_server_handled_total', { ...ka, grpc_code: 'OK' }), 1);
});

void test('the receive limit follows etcd (max-request-bytes + 512 KiB)', async () => {
  const { maxRecvBytesFor } = await import('../../../server/api/grpc/server.js');
  assert.equal(maxRecvBytesFor(1_572_864), 2_097_152);
});
