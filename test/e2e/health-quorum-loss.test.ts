/**
 * `/health` after quorum loss (issue 30): in a 3-member cluster whose two other members are
 * killed (SIGKILL, both exits awaited), the survivor's very first `/health` answer is
 * `{"health":"false"}` (503) — the quorum read it makes cannot complete — not `true` until
 * the election timeout clears its leader. etcdctl v2 `cluster-health`, run right after,
 * prints the survivor as unhealthy and `cluster is unavailable`. Later answers stay false
 * (polled a few times, each wait bounded by GENEROUS_MS). `cluster-health` lists the members
 * through `/v2/members`, which etcd 3.4 serves only with `--enable-v2`: both kinds run with it.
 * Runs against every server kind of serverKinds() with the same expectations (the real etcd
 * 3.4 is the reference; kvstore runs as its version). No timing is asserted: the check is on the first answer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { healthOf } from '../support/member-http.js';
import { etcdctl, etcdVersion, eventually, GENEROUS_MS, serverKinds, startCluster, waitForLeader, type Member } from '../support/processes.js';

const UNHEALTHY = '{"health":"false"}';

/** etcdctl v2 `cluster-health` through the survivor's client URL. */
function clusterHealth(m: Member): ReturnType<typeof etcdctl> {
  return etcdctl(m.clientUrl, ['cluster-health'], { env: { ETCDCTL_API: '2' }, timeoutMs: GENEROUS_MS });
}

for (const kind of serverKinds()) {
  void describe(`/health of a ${kind} member that lost its quorum`, () => {
    void it('answers false at once; etcdctl cluster-health says the cluster is unavailable', async (t) => {
      // kvstore on the reference's release line, so both answer with the same body shape.
      const env: Record<string, string> = kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {};
      const members = await startCluster(kind, 3, { args: ['--enable-v2'], env });
      const { leader, followers } = await waitForLeader(members);
      const survivor = followers[0]!;
      await eventually('the survivor reports healthy', async () => ((await healthOf(survivor)).status === 200 ? true : undefined));
      const before = await clusterHealth(survivor);
      assert.match(before.stdout, /^cluster is healthy$/m, `cluster-health before the kills:\n${before.stdout}${before.stderr}`);

      await Promise.all([leader.kill9(), followers[1]!.kill9()]);

      const first = await healthOf(survivor);
      t.diagnostic(`first /health after the kills: ${first.status} ${first.body.trim()}`);
      assert.deepEqual({ status: first.status, body: first.body.trim() }, { status: 503, body: UNHEALTHY });

      const ch = await clusterHealth(survivor);
      t.diagnostic(`cluster-health: exit ${ch.code}\n${ch.stdout}${ch.stderr}`);
      assert.match(ch.stdout, /^member [0-9a-f]+ is unhealthy: got unhealthy result from http:\/\/\S+$/m);
      assert.match(ch.stdout, /^cluster is unavailable$/m);
      assert.doesNotMatch(ch.stdout, /is healthy/);
      assert.notEqual(ch.code, 0);

      for (let i = 0; i < 3; i++) {
        const later = await eventually('a /health answer', async () => healthOf(survivor).catch(() => undefined), { timeoutMs: GENEROUS_MS });
        assert.equal(later.body.trim(), UNHEALTHY, 'the survivor stays unhealthy');
      }
    });
  });
}
