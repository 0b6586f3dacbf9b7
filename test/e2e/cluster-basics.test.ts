/**
 * A healthy 3-member cluster serves the etcd API from every member: data written through one
 * member is read, watched and leased through the others; the members agree on the membership,
 * on one leader and on the raft index; etcdctl's `--cluster` variants reach every member.
 *
 * Runs against every server kind of serverKinds() (E2E_SERVERS). All waits are bounded by
 * GENEROUS_MS and fail only when it is exceeded.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  agreedLeader, ctlFor, endpointHealth, etcdctl, endpointStatus, eventually, memberList, serverKinds, spawnEtcdctl, startCluster,
  waitForLeader, type Member,
} from '../support/processes.js';

interface KeyValueJson {
  header: { revision: number };
  kvs?: { key: string; value: string; mod_revision: number }[];
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** `get <key> -w json` through `m`; `serializable` adds --consistency=s. */
async function getJson(m: Member, key: string, serializable: boolean): Promise<KeyValueJson> {
  const args = ['get', key, '-w', 'json', ...(serializable ? ['--consistency=s'] : [])];
  return JSON.parse(await ctlFor(m).ok(args)) as KeyValueJson;
}

for (const kind of serverKinds()) {
  void describe(`a 3-member ${kind} cluster`, () => {
    let members: Member[] = [];
    before(async () => {
      members = await startCluster(kind, 3);
    });

    void it('lists the same 3 started members, with names and client URLs, on every member', async () => {
      const expected = JSON.stringify(
        members.map((m) => ({ name: m.name, peerURLs: [m.peerUrl], clientURLs: [m.clientUrl], isLearner: false })).sort((a, b) => a.name.localeCompare(b.name)),
      );
      // A member lists another as started once it has applied that member's published attributes.
      let seen: string[] = [];
      const lists = await eventually('every member lists the 3 started members', async () => {
        const all = await Promise.all(members.map((m) => memberList(m.endpoint)));
        seen = all.map((list) => JSON.stringify(list.map(({ name, peerURLs, clientURLs, isLearner }) => ({ name, peerURLs, clientURLs, isLearner })).sort((a, b) => a.name.localeCompare(b.name))));
        return seen.every((v) => v === expected) ? all : undefined;
      }, { describe: () => `${seen.join('\n')}\nexpected ${expected}` });
      for (const [i, list] of lists.entries()) assert.deepEqual(list, lists[0], `member list through ${members[i].name} equals the one through ${members[0].name}`);
      assert.equal(new Set(lists[0].map((m) => m.id)).size, 3, 'three distinct member ids');
    });

    void it('reads a put made through member 1 on members 2 and 3, linearizable and serializable', async () => {
      const [m1, m2, m3] = members;
      for (let i = 0; i < 10; i++) {
        const key = `basics/read/${i}`;
        const value = `value-${i}`;
        const put = JSON.parse(await ctlFor(m1).ok(['put', key, value, '-w', 'json'])) as { header: { revision: number } };
        // A linearizable read after the put was acknowledged must see it, on any member.
        const reads = await Promise.all([m2, m3].map((m) => getJson(m, key, false)));
        for (const [j, r] of reads.entries()) {
          assert.deepEqual(r.kvs?.map((kv) => [kv.key, kv.value, kv.mod_revision]), [[b64(key), b64(value), put.header.revision]], `linearizable get through member ${j + 2}`);
        }
        // A serializable read answers from the member's own state: it shows the put once applied there.
        for (const m of [m2, m3]) {
          await eventually(`serializable get of ${key} through ${m.name} shows the put`, async () => {
            const r = await getJson(m, key, true);
            return r.kvs?.[0]?.value === b64(value) && r.kvs[0].mod_revision === put.header.revision ? true : undefined;
          });
        }
      }
    });

    void it('delivers a put made through one member to a watch opened on a follower', async () => {
      const { followers, leader } = await waitForLeader(members);
      const [watcher, writer] = [followers[0], followers[1] ?? leader];
      const from = (await ctlFor(watcher).revision()) + 1;
      // Starting at a revision not yet written makes the watch independent of when it is set up.
      const watch = spawnEtcdctl(watcher.endpoint, ['watch', 'basics/watched', `--rev=${from}`]);
      try {
        await ctlFor(writer).ok(['put', 'basics/watched', 'through-another-member']);
        const out = await watch.waitFor('PUT\nbasics/watched\nthrough-another-member\n');
        assert.equal(out, 'PUT\nbasics/watched\nthrough-another-member\n');
      } finally {
        await watch.stop();
      }
    });

    void it('keeps alive and reports a lease granted on one follower through another follower', async () => {
      const { followers } = await waitForLeader(members);
      const [granter, other] = followers;
      const granted = await ctlFor(granter).ok(['lease', 'grant', '60']);
      const id = /^lease ([0-9a-f]+) granted with TTL\(60s\)$/m.exec(granted)?.[1];
      assert.ok(id !== undefined, `lease grant output: ${granted}`);
      await ctlFor(granter).ok(['put', 'basics/leased', 'x', `--lease=${id}`]);

      const kept = await ctlFor(other).ok(['lease', 'keep-alive', '--once', id]);
      assert.match(kept, new RegExp(`^lease ${id} keepalived with TTL\\(60\\)$`, 'm'));
      const ttl = await ctlFor(other).ok(['lease', 'timetolive', id, '--keys']);
      const m = new RegExp(`^lease ${id} granted with TTL\\(60s\\), remaining\\((\\d+)s\\), attached keys\\(\\[basics/leased\\]\\)$`, 'm').exec(ttl);
      assert.ok(m !== null, `timetolive output: ${ttl}`);
      const remaining = Number(m[1]);
      assert.ok(remaining > 0 && remaining <= 60, `remaining ${remaining}s`);
    });

    void it('reports every endpoint healthy, exactly one leader, and the same raft index', async () => {
      const endpoints = members.map((m) => m.endpoint);
      const { health, result } = await endpointHealth(endpoints);
      assert.equal(result.code, 0, `endpoint health:\n${result.stdout}${result.stderr}`);
      assert.deepEqual(health.map((h) => [h.endpoint, h.health]).sort(), endpoints.map((e) => [e, true]).sort());

      const { statuses, result: st } = await endpointStatus(endpoints);
      assert.equal(st.code, 0, `endpoint status:\n${st.stdout}${st.stderr}`);
      assert.deepEqual(statuses.map((s) => s.endpoint).sort(), [...endpoints].sort());
      assert.ok(agreedLeader(statuses) !== undefined, `one leader named by all: ${st.stdout}`);
      assert.equal(new Set(statuses.map((s) => s.memberId)).size, 3, 'three distinct members answered');

      // With no writes going on, every member reaches the same raft index and applies it.
      let last = '';
      await eventually('all members at the same raft index, applied', async () => {
        const { statuses: now, result: r } = await endpointStatus(endpoints);
        last = r.stdout;
        const indexes = new Set(now.flatMap((s) => [s.raftIndex, s.raftAppliedIndex]));
        return r.code === 0 && now.length === 3 && indexes.size === 1 ? true : undefined;
      }, { describe: () => last });
    });

    void it('reaches every member with endpoint health --cluster', async () => {
      const clientUrls = members.map((m) => m.clientUrl).sort();
      const { health, result } = await endpointHealth(members[0].endpoint, ['--cluster']);
      assert.equal(result.code, 0, `endpoint health --cluster:\n${result.stdout}${result.stderr}`);
      assert.deepEqual(health.map((h) => [h.endpoint, h.health]).sort(), clientUrls.map((u) => [u, true]));

      // The plain form (etcdctl 3.4 prints it on stderr): one "<client URL> is healthy" line per
      // member, nothing else.
      const text = await etcdctl(members[0].endpoint, ['endpoint', 'health', '--cluster']);
      assert.equal(text.code, 0, `endpoint health --cluster:\n${text.stdout}${text.stderr}`);
      const healthy = `${text.stdout}${text.stderr}`.split('\n').filter((l) => l !== '').map((l) => /^(\S+) is healthy: successfully committed proposal: took = \S+$/.exec(l)?.[1] ?? `unexpected line: ${l}`);
      assert.deepEqual(healthy.sort(), clientUrls);
    });

    void it('reaches every member with endpoint status --cluster', async () => {
      const clientUrls = members.map((m) => m.clientUrl).sort();
      const { statuses, result: st } = await endpointStatus(members[1].endpoint, ['--cluster']);
      assert.equal(st.code, 0, `endpoint status --cluster:\n${st.stdout}${st.stderr}`);
      assert.deepEqual(statuses.map((s) => s.endpoint).sort(), clientUrls);
      assert.ok(agreedLeader(statuses) !== undefined, `one leader named by all: ${st.stdout}`);
    });
  });
}
