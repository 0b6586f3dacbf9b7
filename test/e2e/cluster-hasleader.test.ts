/**
 * Require-leader streams (`hasleader: true`, ETCD-FACTS §0) on a member that loses its leader:
 * in a 3-member cluster, `etcdctl watch` (which asks for a leader) and a raw gRPC watch
 * WITHOUT the metadata are open on one follower; the two other members are killed (SIGKILL).
 * - the etcdctl watch ends by itself, within a bounded wait, with `etcdserver: no leader`
 *   (printed as the reference etcdctl prints it, same exit code);
 * - the raw watch without the metadata stays open and still answers a new create request.
 * Runs against every server kind of serverKinds() with the same expectations (the real etcd
 * 3.4 is the reference), and once more against kvstore with both watches served by the
 * follower's front-end thread (`KVSTORE_CLIENT_THREADS=1`, server/frontend/local-watches.ts);
 * all waits are bounded by GENEROUS_MS.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { FRONT_END_WATCHES, keepFrontEndWatches, LOCAL_WATCH_STREAMS, metricValue, type KeptWatch } from '../support/front-end-watches.js';
import { ctlFor, eventually, GENEROUS_MS, serverKinds, spawnEtcdctl, startCluster, waitForLeader, type ServerKind } from '../support/processes.js';

const createReq = (key: string): pb.WatchRequest => ({
  requestUnion: {
    $case: 'createRequest',
    value: { ...pb.WatchCreateRequest.fromJSON({}), key: Buffer.from(key) },
  },
});

/** Resolves with the next response on `stream`, or rejects after `ms`. */
function nextResponse(stream: grpc.ClientDuplexStream<pb.WatchRequest, pb.WatchResponse>, ms: number): Promise<pb.WatchResponse> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no watch response within ${ms} ms`)), ms);
    stream.once('data', (r: pb.WatchResponse) => {
      clearTimeout(timer);
      resolve(r);
    });
  });
}

const variants: Array<{ readonly kind: ServerKind; readonly title: string; readonly frontEnd: boolean }> = serverKinds().map((kind) => ({ kind, title: kind, frontEnd: false }));
if (serverKinds().includes('kvstore')) variants.push({ kind: 'kvstore', title: 'kvstore (watches on the front-end thread)', frontEnd: true });

for (const { kind, title, frontEnd } of variants) {
  void describe(`require-leader streams of a ${title} member that loses its leader`, () => {
    void it('cancels the hasleader watch with no leader; a watch without the metadata stays open', async (t) => {
      const members = await startCluster(kind, 3, { env: frontEnd ? FRONT_END_WATCHES : {} });
      const { leader, followers } = await waitForLeader(members);
      const [survivor, otherFollower] = [followers[0]!, followers[1]!];
      const keeper: KeptWatch | undefined = frontEnd ? await keepFrontEndWatches(survivor) : undefined;
      const local = frontEnd ? await metricValue(survivor, LOCAL_WATCH_STREAMS) : 0;

      // From revision 1, so the put below shows up however late the watch is created.
      const watcher = spawnEtcdctl(survivor.endpoint, ['watch', 'hl/key', '--rev=1']);
      const client = new pb.WatchClient(survivor.endpoint, grpc.credentials.createInsecure());
      const plain = client.watch(new grpc.Metadata());
      let plainStatus: grpc.StatusObject | undefined;
      plain.on('status', (s: grpc.StatusObject) => (plainStatus = s));
      plain.on('error', () => undefined);
      try {
        const created = nextResponse(plain, GENEROUS_MS);
        plain.write(createReq('hl/plain'));
        assert.equal((await created).created, true);
        // etcdctl's watch is open once the put shows up in it.
        await ctlFor(survivor).ok(['put', 'hl/key', 'v1']);
        await watcher.waitFor('v1');
        if (frontEnd) {
          await eventually('both watches are served by the thread', async () => ((await metricValue(survivor, LOCAL_WATCH_STREAMS)) === local + 2 ? true : undefined));
        }

        await Promise.all([leader.kill9(), otherFollower.kill9()]);
        const ended = await Promise.race([
          watcher.result(),
          new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), GENEROUS_MS).unref()),
        ]);
        if (ended === undefined) watcher.timeout();
        assert.ok(ended, `etcdctl watch still open ${GENEROUS_MS} ms after the leader was lost; stderr:\n${watcher.stderr()}`);
        t.diagnostic(`etcdctl watch: exit ${ended.code}; stderr: ${ended.stderr.trim()}`);
        assert.match(ended.stderr, /etcdserver: no leader/);
        assert.deepEqual(
          { code: ended.code, lines: ended.stderr.trim().split('\n').filter((l) => !l.startsWith('{')) },
          { code: 5, lines: ['watch was canceled (etcdserver: no leader)', 'Error: watch is canceled by the server'] },
        );

        assert.equal(plainStatus, undefined, 'the watch without hasleader is still open');
        const again = nextResponse(plain, GENEROUS_MS);
        plain.write(createReq('hl/plain2'));
        assert.equal((await again).created, true);
        assert.equal(plainStatus, undefined);
      } finally {
        keeper?.close();
        plain.cancel();
        client.close();
        if (watcher.pid > 0) await watcher.stop('SIGKILL').catch(() => undefined);
      }
    });
  });
}
