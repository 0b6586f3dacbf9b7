/**
 * Differential (real etcd 3.4 vs kvstore, issue 30): the v2 store index counts the cluster's
 * own records (member raft attributes, published attributes, cluster version) as etcd's does,
 * so on a fresh cluster with --enable-v2 the first v2 write, `X-Etcd-Index`, a v2
 * `etcdctl watch --after-index=1` and the indices after a restart and a member add/remove
 * are the same on both. Each run waits until the cluster version is decided and every member
 * has published, so the internal writes that precede a user write are all applied.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffSubject, etcdctl, etcdVersion, eventually, startCluster, type Member, type ServerKind } from '../support/processes.js';

const V2 = { ETCDCTL_API: '2' };
const WATCH_BOUND_MS = 10_000;

async function http(url: string, method = 'GET', body?: string): Promise<{ status: number; index: string | null; json: Record<string, unknown> }> {
  const res = await fetch(url, { method, body, headers: body ? { 'content-type': 'application/x-www-form-urlencoded' } : {} });
  return { status: res.status, index: res.headers.get('x-etcd-index'), json: (await res.json()) as Record<string, unknown> };
}

/** Index of a v2 PUT (the node's modifiedIndex), checked against the answer's X-Etcd-Index. */
async function putIndex(m: Member, key: string, value: string): Promise<number> {
  const r = await http(`${m.clientUrl}/v2/keys/${key}`, 'PUT', `value=${value}`);
  const node = r.json.node as { modifiedIndex: number };
  assert.equal(String(node.modifiedIndex), r.index, 'X-Etcd-Index of a write is its index');
  return node.modifiedIndex;
}

/** Every member reports a decided cluster version and lists every member as started. */
async function settled(members: readonly Member[]): Promise<void> {
  await eventually('cluster version decided and all members published', async () => {
    for (const m of members) {
      const v = (await (await fetch(`${m.clientUrl}/version`)).json()) as { etcdcluster: string };
      if (v.etcdcluster !== `${etcdVersion().split('.').slice(0, 2).join('.')}.0`) return undefined;
      const list = (await (await fetch(`${m.clientUrl}/v2/members`)).json()) as { members: { clientURLs: string[] }[] };
      if (list.members.length !== members.length || list.members.some((x) => x.clientURLs.length === 0)) return undefined;
    }
    return true;
  });
}

async function start(kind: ServerKind, size: number): Promise<Member[]> {
  const env: Record<string, string> = kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {};
  const members = await startCluster(kind, size, { args: ['--enable-v2'], env });
  await settled(members);
  return members;
}

/** One member: first write, a v2 watch from index 1, a few writes, a restart. */
async function oneMember(kind: ServerKind): Promise<Record<string, unknown>> {
  const [m] = await start(kind, 1);
  const first = await putIndex(m!, 'foo', 'bar');
  const watch = await etcdctl(m!.clientUrl, ['watch', '--after-index=1', '/foo'], { env: V2, timeoutMs: WATCH_BOUND_MS });
  const afterFew = [await putIndex(m!, 'foo', 'b2'), await putIndex(m!, 'dir/a', 'x'), await putIndex(m!, 'foo', 'b3')];
  const root = await http(`${m!.clientUrl}/v2/keys/?recursive=true`);
  const internal = await http(`${m!.clientUrl}/v2/keys/0/version`);
  await m!.restart();
  await settled([m!]);
  const afterRestart = await putIndex(m!, 'foo', 'b4');
  return {
    first,
    watch: { code: watch.code, timedOut: watch.timedOut, stdout: watch.stdout },
    afterFew,
    listing: (root.json.node as { nodes: { key: string }[] }).nodes.map((n) => n.key).sort(),
    internal: { status: internal.status, body: internal.json },
    afterRestart,
  };
}

/** Three members: first write, then a member added (not started) and removed. */
async function threeMembers(kind: ServerKind): Promise<Record<string, unknown>> {
  const members = await start(kind, 3);
  const m = members[0]!;
  const first = await putIndex(m, 'foo', 'bar');
  const endpoints = members.map((x) => x.endpoint);
  // Refused (`unhealthy cluster`) until the leader has been connected to every member for 5 s.
  const id = await eventually('member add accepted', async () => {
    const added = await etcdctl(endpoints, ['member', 'add', 'extra', '--peer-urls=http://127.0.0.1:1']);
    return /Member ([0-9a-f]+) added/.exec(added.stdout)?.[1];
  });
  const afterAdd = await putIndex(m, 'foo', 'b2');
  const removed = await etcdctl(endpoints, ['member', 'remove', id]);
  assert.equal(removed.code, 0, removed.stderr);
  const afterRemove = await putIndex(m, 'foo', 'b3');
  return { first, afterAdd, afterRemove };
}

void test('v2 index: one member — first write, watch --after-index=1, more writes, restart (etcd vs subject)', async (t) => {
  const reference = await oneMember('etcd');
  t.diagnostic(`etcd: ${JSON.stringify(reference)}`);
  const subject = await oneMember(diffSubject());
  assert.equal(reference.first, 4, 'etcd 3.4: raftAttributes, attributes, version come first');
  assert.deepEqual(subject, reference);
});

void test('v2 index: three members — first write, member add and remove (etcd vs subject)', async (t) => {
  const reference = await threeMembers('etcd');
  t.diagnostic(`etcd: ${JSON.stringify(reference)}`);
  const subject = await threeMembers(diffSubject());
  assert.deepEqual(subject, reference);
});
