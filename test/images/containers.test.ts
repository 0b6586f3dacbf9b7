/**
 * The real images, run with podman (issue 31, point 3): the member images kvstore/kvstore:3.4.0
 * and :3.5.0 and the operator image, as scripts/images.mjs builds them (built here through that
 * script when missing). One cluster of three member containers on the host network (127.0.99.11–13,
 * named volumes) carries the member scenarios in order: etcdctl 3.4 from the host, a `podman kill`
 * of the leader and the member's restart from its volume, then a rolling upgrade from the 3.4.0
 * image to the 3.5.0 image on the same volumes, driven by this test: the operator's local mode runs
 * member processes, not images, so it cannot roll image tags. The operator image then runs
 * `kvstore-operator local` as the smoke check does, brings a cluster to Running and upgrades it
 * from 3.4.0 to 3.5.0 (member processes inside the operator's container).
 *
 * Skipped, with the reason printed, when podman is missing or cannot run a container here, or
 * etcdctl 3.4 is missing. Every container and volume is named kvstore-imgtest-* and removed before
 * and after (also on failure). Waits are bounded; no timing is asserted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually } from '../support/eventually.js';
import { etcdctl } from '../support/etcdctl.js';
import { allHealthy, etcdctlVersion, get, memberList, put, versions } from './support/cluster-checks.js';
import { prepareImages, type Prepared } from './support/engine.js';
import { MemberContainers, removeByPrefix, type MemberSpec } from './support/member-containers.js';
import { OperatorContainer } from './support/operator-container.js';

const PREFIX = 'kvstore-imgtest';
/** Bound for a member container to serve (node start-up on 2 shared cores, an election). */
const START_MS = 90_000;

async function skipReason(prepared: Prepared): Promise<string | false> {
  if (prepared.kind === 'skip') return prepared.reason;
  const ctl = await etcdctlVersion();
  if ('missing' in ctl) return ctl.missing;
  return ctl.version.startsWith('3.4.') ? false : `etcdctl ${ctl.version} is not 3.4`;
}

const prepared = await prepareImages();
const skip = await skipReason(prepared);
console.log(skip === false && prepared.kind === 'ready' ? `# images: ${prepared.built.replaceAll('\n', '\n# images: ')}` : `# images: SKIPPED: ${String(skip)}`);

function ready(): Extract<Prepared, { kind: 'ready' }> {
  if (prepared.kind !== 'ready') throw new Error('images not prepared');
  return prepared;
}

/** The member that says it leads (etcdctl endpoint status: the fifth field). */
async function leaderOf(cluster: MemberContainers): Promise<MemberSpec> {
  const r = await etcdctl(cluster.endpoints(), ['--command-timeout=5s', 'endpoint', 'status'], { timeoutMs: 20_000 });
  const line = r.stdout.split('\n').find((l) => l.split(', ')[4] === 'true');
  const leader = cluster.members.find((m) => line?.startsWith(`${m.clientUrl},`));
  if (leader === undefined) throw new Error(`no leader in: ${r.stdout}${r.stderr}`);
  return leader;
}

void describe('member images: three member containers on the host network', () => {
  const { engine, images } = prepared.kind === 'ready' ? prepared : ({} as Extract<Prepared, { kind: 'ready' }>);
  const cluster = skip === false ? new MemberContainers(engine, PREFIX, 3) : undefined;
  const c = (): MemberContainers => {
    if (cluster === undefined) throw new Error('no cluster');
    return cluster;
  };
  const written = new Map<string, string>();
  const write = async (endpoints: readonly string[], key: string, value: string): Promise<void> => {
    await eventually(`put ${key} via ${endpoints.join(',')}`, () => put(endpoints, key, value), { timeoutMs: 60_000, intervalMs: 500 });
    written.set(key, value);
  };
  const expectAll = async (endpoint: string): Promise<void> => {
    for (const [k, v] of written) assert.equal(await get([endpoint], k, 's'), v, `${k} on ${endpoint}`);
  };

  before(() => {
    if (skip !== false) return;
    removeByPrefix(engine, PREFIX);
    for (const m of c().members) c().start(m, images.member34);
  });
  after(() => {
    cluster?.removeAll();
  });

  void test('etcdctl 3.4 on the host: endpoint health, member list, put and get (cluster version 3.4)', { skip, timeout: 180_000 }, async () => {
    const all = c().endpoints();
    await eventually('all three members healthy', () => allHealthy(all), { timeoutMs: START_MS, intervalMs: 1000, describe: () => c().members.map((m) => c().logs(m, 5)).join('\n') });
    const members = await memberList(all);
    assert.deepEqual(members.map((m) => [m.name, m.clientURLs.join(',')]).sort(), c().members.map((m) => [m.name, m.clientUrl]));
    await write(all, 'img/before', 'v1');
    for (const m of c().members) {
      await eventually(`img/before on ${m.name}`, async () => ((await get([m.clientUrl], 'img/before', 's')) === 'v1' ? true : undefined), { timeoutMs: 30_000 });
      assert.equal(c().imageOf(m), images.member34);
      const v = await eventually(`cluster version on ${m.name}`, async () => { const x = await versions(m.clientUrl); return x.etcdcluster.startsWith('3.4') ? x : undefined; }, { timeoutMs: 30_000 });
      assert.match(v.etcdserver, /^3\.4\./);
    }
  });

  void test('podman kill of the leader: the others keep serving writes; it restarts from its volume with its data and rejoins', { skip, timeout: 240_000 }, async () => {
    const victim = await eventually('a leader', () => leaderOf(c()), { timeoutMs: 30_000, intervalMs: 1000 });
    const others = c().endpoints(victim);
    c().kill(victim);
    await write(others, 'img/while-killed', `without ${victim.name}`);
    for (let i = 0; i < 5; i++) await write(others, `img/while-killed/${i}`, String(i));
    assert.equal(await get(others, 'img/while-killed'), `without ${victim.name}`);
    c().remove(victim);
    c().start(victim, images.member34);
    await eventually('all three healthy after the restart', () => allHealthy(c().endpoints()), { timeoutMs: START_MS, intervalMs: 1000, describe: () => c().logs(victim) });
    await eventually(`${victim.name} caught up (serializable reads)`, async () => {
      await expectAll(victim.clientUrl);
      return true;
    }, { timeoutMs: 30_000, intervalMs: 500 });
    assert.equal((await memberList(c().endpoints())).length, 3);
    await write(c().endpoints(), 'img/after-restart', 'v2');
  });

  void test('rolling upgrade: each member replaced by the 3.5.0 image on its volume, followers first; cluster version 3.4 → 3.5, data intact', { skip, timeout: 280_000 }, async () => {
    const leader = await eventually('a leader', () => leaderOf(c()), { timeoutMs: 30_000, intervalMs: 1000 });
    const order = [...c().members.filter((m) => m !== leader), leader];
    for (const [i, m] of order.entries()) {
      c().stopAndRemove(m);
      await write(c().endpoints(m), `img/upgrade/${m.name}`, `while ${m.name} is down`);
      c().start(m, images.member35);
      await eventually(`all healthy with ${m.name} on 3.5.0`, () => allHealthy(c().endpoints()), { timeoutMs: START_MS, intervalMs: 1000, describe: () => c().logs(m) });
      const v = await versions(m.clientUrl);
      assert.match(v.etcdserver, /^3\.5\./, `${m.name} runs the 3.5.0 image`);
      if (i < order.length - 1) assert.match(v.etcdcluster, /^3\.4\./, `cluster version with ${i + 1} of 3 members upgraded`);
    }
    for (const m of c().members) {
      assert.equal(c().imageOf(m), images.member35);
      await eventually(`cluster version 3.5 on ${m.name}`, async () => ((await versions(m.clientUrl)).etcdcluster.startsWith('3.5') ? true : undefined), { timeoutMs: 60_000, intervalMs: 1000 });
    }
    await write(c().endpoints(), 'img/after-upgrade', 'v3');
    for (const m of c().members) {
      await eventually(`every key on ${m.name}`, async () => {
        await expectAll(m.clientUrl);
        return true;
      }, { timeoutMs: 30_000, intervalMs: 500 });
    }
  });
});

void describe('operator image: kvstore-operator local (members inside the container)', () => {
  const op = skip === false ? new OperatorContainer(ready().engine, PREFIX) : undefined;
  after(() => {
    op?.remove();
  });

  void test('brings a three-member 3.4.0 cluster to Running; etcdctl on the host uses it', { skip, timeout: 240_000 }, async () => {
    if (op === undefined) throw new Error('no operator');
    op.start(ready().images.operator, () => undefined);
    // The status gains the cluster version in a later pass than the one that says Running 3/3.
    const status = await eventually('phase Running, readyMembers 3/3, cluster version 3.4', () => {
      const s = op.status();
      return Promise.resolve(s.phase === 'Running' && s.readyMembers === '3/3' && /^3\.4/.test(s.clusterVersion ?? '') ? s : undefined);
    }, { timeoutMs: 180_000, intervalMs: 1000, describe: () => `${op.describe()}\n${op.logs()}` });
    const urls = (status.members ?? []).map((m) => m.clientURL ?? '');
    assert.equal(urls.length, 3);
    assert.match(status.clusterVersion ?? '', /^3\.4/);
    await eventually('put through the operator-run members', () => put(urls, 'img/operator', 'ok'), { timeoutMs: 30_000, intervalMs: 500 });
    assert.equal(await get(urls, 'img/operator'), 'ok');
  });

  void test('spec.version 3.4.0 → 3.5.0 in the file: the operator upgrades its members in place; cluster version 3.5, data intact', { skip, timeout: 300_000 }, async () => {
    if (op === undefined) throw new Error('no operator');
    op.setVersion('3.5.0');
    const status = await eventually('upgrade Completed, cluster version 3.5, readyMembers 3/3', () => {
      const s = op.status();
      return Promise.resolve(s.upgrade?.state === 'Completed' && s.upgrade.to === '3.5.0' && /^3\.5/.test(s.clusterVersion ?? '') && s.readyMembers === '3/3' ? s : undefined);
    }, { timeoutMs: 240_000, intervalMs: 1000, describe: () => `${op.describe()}\n${op.logs()}` });
    assert.equal(status.upgrade?.membersDone?.length, 3);
    const urls = (status.members ?? []).map((m) => m.clientURL ?? '');
    assert.equal(await get(urls, 'img/operator'), 'ok');
  });
});
