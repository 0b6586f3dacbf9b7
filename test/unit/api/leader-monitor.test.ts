// The no-leader monitor on a fake clock (sampling driven by hand), then through the real gRPC
// server: require-leader Watch and LeaseKeepAlive streams end with `etcdserver: no leader`
// once the member has had no leader for 3 election timeouts; other streams stay open.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { MAX_NO_LEADER_PERIODS, NoLeaderMonitor, type Scheduler } from '../../../server/api/grpc/leader-monitor.js';
import { createGrpcEdge } from '../../../server/api/grpc/server.js';
import { listenClient, type ClientListener } from '../../../server/transport/client-listener.js';
import { fakeServices, msg, requireLeader, statusOf, until } from '../grpc/harness.js';

/** A scheduler whose single interval fires when the test says so. */
function fakeScheduler(): Scheduler & { fire(): void; readonly running: number; readonly periods: number[] } {
  const timers = new Map<number, () => void>();
  const periods: number[] = [];
  let next = 0;
  return {
    every(ms, fn) {
      const id = next++;
      timers.set(id, fn);
      periods.push(ms);
      return () => timers.delete(id);
    },
    fire() {
      for (const fn of [...timers.values()]) fn();
    },
    get running() {
      return timers.size;
    },
    periods,
  };
}

void test('monitor: streams are cancelled after 3 consecutive samples without a leader, once each', () => {
  const clock = fakeScheduler();
  let leader = true;
  const m = new NoLeaderMonitor(() => leader, 1000, clock);
  const cancelled: string[] = [];
  m.register(() => cancelled.push('a'));
  m.register(() => cancelled.push('b'));
  assert.deepEqual(clock.periods, [1000], 'one timer per member, at the election timeout');
  leader = false;
  for (let i = 1; i < MAX_NO_LEADER_PERIODS; i++) clock.fire();
  assert.deepEqual(cancelled, []);
  assert.equal(m.periodsWithoutLeader, MAX_NO_LEADER_PERIODS - 1);
  clock.fire();
  assert.deepEqual(cancelled, ['a', 'b']);
  assert.equal(m.size, 0);
  assert.equal(clock.running, 0, 'no stream left: the timer stops');
  clock.fire();
  assert.deepEqual(cancelled, ['a', 'b'], 'a cancel runs once');
});

void test('monitor: a sample with a leader starts the count over', () => {
  const clock = fakeScheduler();
  let leader = false;
  const m = new NoLeaderMonitor(() => leader, 10, clock);
  let cancelled = 0;
  m.register(() => cancelled++);
  clock.fire();
  clock.fire();
  leader = true;
  clock.fire();
  assert.equal(m.periodsWithoutLeader, 0);
  leader = false;
  clock.fire();
  clock.fire();
  assert.equal(cancelled, 0);
  clock.fire();
  assert.equal(cancelled, 1);
});

void test('monitor: a removed stream is never cancelled; the timer runs only while streams are registered', () => {
  const clock = fakeScheduler();
  const m = new NoLeaderMonitor(() => false, 10, clock);
  let cancelled = 0;
  const remove = m.register(() => cancelled++);
  assert.equal(clock.running, 1);
  remove();
  assert.equal(clock.running, 0);
  for (let i = 0; i < 5; i++) clock.fire();
  assert.equal(cancelled, 0);
  m.register(() => cancelled++);
  assert.equal(m.periodsWithoutLeader, 0, 'a new timer counts from 0');
});

// --- through the real server, with a short election timeout --------------------------------

const state = { leader: true };
let listener: ClientListener;
let address: string;
before(async () => {
  const edge = createGrpcEdge({
    services: fakeServices().services,
    maxRecvBytes: 64 * 1024,
    registry: new Registry(),
    hasLeader: () => state.leader,
    electionTimeoutMs: 20,
    logger: pino({ level: 'silent' }),
  });
  listener = await listenClient(new URL('http://127.0.0.1:0'), edge.h2, (_req, res) => void res.end(), pino({ level: 'silent' }), { closeGraceMs: 200 });
  address = `127.0.0.1:${listener.address.port}`;
});
after(() => listener.close());

const createReq: pb.WatchRequest = { requestUnion: { $case: 'createRequest', value: msg(pb.WatchCreateRequest, { key: Buffer.from('k') }) } };

void test('server: require-leader watch and keep-alive streams end with no leader; a plain watch stays open', async () => {
  const watchClient = new pb.WatchClient(address, grpc.credentials.createInsecure());
  const leaseClient = new pb.LeaseClient(address, grpc.credentials.createInsecure());
  try {
    state.leader = true;
    const open = (md: grpc.Metadata) => {
      const s = watchClient.watch(md);
      s.on('error', () => undefined);
      const created = new Promise((resolve) => s.once('data', resolve));
      s.write(createReq);
      return { s, created };
    };
    const required = open(requireLeader());
    const plain = open(new grpc.Metadata());
    const keepAlive = leaseClient.leaseKeepAlive(requireLeader());
    keepAlive.on('error', () => undefined);
    const firstReply = new Promise((resolve) => keepAlive.once('data', resolve));
    keepAlive.write({ ID: 7n });
    await Promise.all([required.created, plain.created, firstReply]);

    let plainEnded = false;
    plain.s.on('status', () => (plainEnded = true));
    state.leader = false;
    const [watchStatus, leaseStatus] = await Promise.all([statusOf(required.s), statusOf(keepAlive)]);
    assert.equal(watchStatus.code, grpc.status.UNAVAILABLE);
    assert.equal(watchStatus.details, 'etcdserver: no leader');
    assert.equal(leaseStatus.code, grpc.status.UNAVAILABLE);
    assert.equal(leaseStatus.details, 'etcdserver: no leader');

    // The plain watch is still served: a new create request is answered.
    const again = new Promise((resolve) => plain.s.once('data', resolve));
    plain.s.write(createReq);
    await again;
    assert.equal(plainEnded, false);
    state.leader = true;
    plain.s.cancel();
    await until(() => plainEnded);
  } finally {
    watchClient.close();
    leaseClient.close();
  }
});
