/**
 * A restarted member serves clients only from a state at least as new as any it has shown.
 *
 * etcd's order at start: a member publishes its attributes through raft (which it can only see
 * applied once it has applied everything committed before), and only then serves clients
 * (`published local member to cluster through raft` before `ready to serve client requests`).
 *
 * Each case, on a 3-member cluster: one put at a time through the two other members while a
 * watch on a follower receives the events; in the same turn as its 200th event arrives, the
 * follower is killed with SIGKILL (mostly before it wrote what it applied to its backend, and with
 * the last commit index it applied not in its WAL), then restarted, and its client port is polled
 * at once through three routes (a serializable gRPC Range, a Watch's `created` response, a
 * serializable Range through the JSON gateway). The first answer of each must carry a header
 * revision at least the highest the watch delivered before the kill, and the restarted run's
 * log must say `published …` before `ready to serve client requests`. kvstore runs the case once
 * with the client port on the main thread and once on a front-end thread
 * (KVSTORE_CLIENT_THREADS=1); etcd (E2E_SERVERS) checks the test itself.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { FRONT_END_WATCHES } from '../support/front-end-watches.js';
import { logRecords, lastRunLog } from '../support/member-log.js';
import { eventually, GENEROUS_MS, serverKinds, startCluster, waitForLeader, WriteLoad, type Member, type ServerKind } from '../support/processes.js';
import { firstAnswer, gatewaySerializableRange, serializableRange, watchCreated, type RevisionProbe } from '../support/revision-probes.js';

const PUBLISHED = 'published local member to cluster through raft';
/** The record a member logs once it serves clients (etcd 3.4 with zap logs the serving mode instead). */
const READY: Readonly<Record<ServerKind, RegExp>> = {
  kvstore: /^ready to serve client requests$/,
  etcd: /^serving client traffic (in)?securely/,
};
const PROBES: ReadonlyArray<[string, RevisionProbe]> = [
  ['serializable Range', serializableRange],
  ['Watch created', watchCreated],
  ['gateway serializable Range', gatewaySerializableRange],
];

/**
 * Watches `prefix` at `m` and kills `m` with SIGKILL in the same turn as its `n`th event arrives
 * (before the member's next backend flush, most of the time); resolves with the highest revision
 * it delivered, once the process has ended.
 */
function killOnDelivery(m: Member, prefix: string, n: number): Promise<bigint> {
  const client = new pb.WatchClient(m.endpoint, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  const stream = client.watch();
  let latest = 0n;
  let seen = 0;
  const key = Buffer.from(prefix);
  const rangeEnd = Buffer.from(prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1));
  return new Promise<bigint>((resolve, reject) => {
    // After the kill the stream fails: expected. Before it, the case cannot go on.
    stream.on('error', (e) => (seen < n ? reject(e) : undefined));
    stream.on('data', (r: pb.WatchResponse) => {
      if (seen >= n) return;
      for (const e of r.events) if (e.kv !== undefined && e.kv.modRevision > latest) latest = e.kv.modRevision;
      seen += r.events.length;
      if (seen < n) return;
      m.kill9().then(() => resolve(latest), reject);
    });
    stream.write({ requestUnion: { $case: 'createRequest', value: { ...pb.WatchCreateRequest.fromJSON({}), key, rangeEnd } } });
  }).finally(() => {
    stream.cancel();
    client.close();
  });
}

/** Record indexes of the restarted run's `published` and first `ready` records (-1: none yet). */
function startOrder(m: Member): { published: number; ready: number } {
  const msgs = logRecords(lastRunLog(m)).map((r) => r.msg);
  return { published: msgs.indexOf(PUBLISHED), ready: msgs.findIndex((msg) => READY[m.kind].test(msg)) };
}

async function killAndRestart(members: readonly Member[], round: string, env: Readonly<Record<string, string>>): Promise<void> {
  const { followers } = await waitForLeader(members);
  const victim = followers[0];
  const prefix = `restart-serve/${round}/`;
  const killed = killOnDelivery(victim, prefix, 200);
  // One put at a time through the other members: each put's commit reaches the follower in a
  // message of its own, after the entry (the case where what it applied is ahead of its log's
  // recorded commit index).
  const load = new WriteLoad({ endpoints: members.filter((m) => m !== victim).map((m) => m.endpoint), writers: 1, prefix });
  let firsts: bigint[];
  let shown: bigint;
  try {
    shown = await killed;
    await victim.restart({ env, waitReady: false });
    firsts = await Promise.all(PROBES.map(([, probe]) => firstAnswer(probe, victim, `${prefix}probe`, { boundMs: 4 * GENEROUS_MS })));
  } finally {
    await load.stop();
  }
  for (const [i, [route]] of PROBES.entries()) {
    assert.ok(firsts[i] >= shown, `${route}: first answer after the restart at revision ${firsts[i]}, below ${shown} shown before the kill`);
  }
  // The records reach the test through a pipe: wait for both (bounded).
  const order = await eventually('the restarted run logged both start records', async () => {
    const o = startOrder(victim);
    return o.published >= 0 && o.ready >= 0 ? o : undefined;
  }, { describe: () => JSON.stringify(startOrder(victim)) });
  assert.ok(order.published < order.ready, `'${PUBLISHED}' (record ${order.published}) before ${READY[victim.kind]} (record ${order.ready})`);
}

function modesOf(kind: ServerKind): ReadonlyArray<{ readonly title: string; readonly env: Readonly<Record<string, string>> }> {
  const main = { title: 'client port on the main thread', env: {} };
  return kind === 'kvstore' ? [main, { title: 'client port on a front-end thread', env: FRONT_END_WATCHES }] : [main];
}

for (const kind of serverKinds()) {
  void describe(`a ${kind} member restarted after SIGKILL`, () => {
    let members: Member[] = [];
    before(async () => {
      members = await startCluster(kind, 3);
    });
    for (const [n, mode] of modesOf(kind).entries()) {
      void it(`serves no revision below what it showed before, and only after publishing (${mode.title})`, async () => {
        await killAndRestart(members, `r${n}`, mode.env);
      });
    }
  });
}
