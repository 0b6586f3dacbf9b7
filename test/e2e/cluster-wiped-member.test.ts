/**
 * A follower whose data dir was deleted, restarted under the same name, must not rejoin as the
 * same voter with amnesia (it forgot the votes and entries it acknowledged). 3 members under a
 * write load through the other two; the follower is stopped, its data dir removed, and it is
 * started again:
 * - with `--initial-cluster-state existing` (it gets its old member id from the cluster): the
 *   leader's first heartbeat carries a commit index past its empty log, and it exits non-zero
 *   with raft's "tocommit(N) is out of range [lastIndex(0)]. Was the raft log corrupted,
 *   truncated, or lost?" (kvstore and etcd alike);
 * - with `--initial-cluster-state new` (it would derive the same ids and write the founding
 *   entries again): it refuses at startup, as the other members list it with client URLs,
 *   with "member <id> has already been bootstrapped" (kvstore and etcd alike). When no other
 *   member answers at that moment, the tocommit check above stops it instead (lastIndex 3, the
 *   founding entries; test/unit/raft/lost-log.test.ts).
 * Either way the other two keep serving, and every acknowledged write reads back.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitForLeader } from '../support/cluster-view.js';
import { lastRunLog } from '../support/member-log.js';
import {
  eventually,
  openKv,
  readPrefix,
  serverKinds,
  startCluster,
  startMember,
  unmatchedAcks,
  WriteLoad,
  type Member,
  type ServerKind,
} from '../support/processes.js';

const TOCOMMIT = /tocommit\((\d+)\) is out of range \[lastIndex\((\d+)\)\]\. Was the raft log corrupted, truncated, or lost\?/;
const EXIT_BOUND_MS = 30_000;

async function exitCodeOf(m: Member): Promise<number | null | 'running'> {
  return Promise.race([m.exited(), sleep(EXIT_BOUND_MS).then(() => 'running' as const)]);
}

/** Restarts `m` on an empty data dir with the given cluster state; resolves with the new run. */
async function restartWiped(kind: ServerKind, m: Member, all: readonly Member[], state: 'new' | 'existing'): Promise<Member> {
  await m.stop();
  rmSync(m.dataDir, { recursive: true, force: true });
  if (state === 'new') {
    await m.restart({ waitReady: false }); // same flags: --initial-cluster-state new
    return m;
  }
  const url = (u: string): URL => new URL(u);
  return startMember(kind, {
    address: {
      name: m.name,
      host: m.host,
      clientPort: Number(url(m.clientUrl).port),
      peerPort: Number(url(m.peerUrl).port),
      clientUrl: m.clientUrl,
      peerUrl: m.peerUrl,
      endpoint: m.endpoint,
    },
    dataDir: m.dataDir,
    initialCluster: all.map((x) => `${x.name}=${x.peerUrl}`).join(','),
    initialClusterState: 'existing',
    waitReady: false,
  });
}

for (const kind of serverKinds()) {
  void describe(`${kind}: a follower restarted on a wiped data dir`, () => {
    for (const state of ['new', 'existing'] as const) {
      void it(`with --initial-cluster-state ${state}: exits non-zero; the other two keep serving and lose no acknowledged write`, async () => {
        const members = await startCluster(kind, 3);
        const { leader, followers } = await waitForLeader(members);
        const [wiped, other] = [followers[0]!, followers[1]!];
        const serving = [leader, other];
        const prefix = `wipe-${state}/`;
        const load = new WriteLoad({ endpoints: serving.map((m) => m.endpoint), writers: 4, prefix });
        try {
          await eventually('puts acknowledged before the wipe', async () => (load.acked.size >= 40 ? true : undefined));
          const run = await restartWiped(kind, wiped, members, state);
          const code = await exitCodeOf(run);
          const log = lastRunLog(run);
          assert.notEqual(code, 'running', `the wiped member still runs after ${EXIT_BOUND_MS} ms; log:\n${log.slice(-4000)}`);
          assert.ok(code !== 0 && code !== null, `exit code ${String(code)}`);
          if (state === 'new') {
            assert.match(log, /has already been bootstrapped/);
          } else {
            const m = TOCOMMIT.exec(log);
            assert.ok(m !== null, `no tocommit message; log tail:\n${log.slice(-4000)}`);
            assert.equal(m[2], '0', 'lastIndex: an empty log');
            assert.ok(Number(m[1]) > Number(m[2]));
          }
          const exitedAt = Date.now();
          await eventually('puts acknowledged after the wiped member exited', async () => (load.ackedAfter(exitedAt) >= 20 ? true : undefined));
        } finally {
          await load.stop();
        }
        const kv = openKv(leader.endpoint);
        try {
          const { kvs } = await readPrefix(kv, prefix);
          assert.deepEqual(unmatchedAcks(load.acked, kvs), []);
        } finally {
          kv.close();
        }
      });
    }
  });
}
