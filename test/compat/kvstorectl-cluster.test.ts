/**
 * Against a 3-member cluster of each server kind (E2E_SERVERS, default kvstore,etcd):
 * - the client library balances reads over the endpoints, skips an endpoint that is down, and a
 *   watch whose member is killed resumes on another one without skipping or repeating an event;
 * - kvstorectl's member commands (list, add, add --learner, promote, update, remove) print what
 *   etcdctl prints on an etcd cluster (masked ids and addresses).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { createClient, type Client, type Result } from '../../ctl/client/index.js';
import { etcdctl, etcdVersion, freePorts, mask, serverKinds, startCluster, type CtlResult, type Member } from '../support/processes.js';
import { kvstorectl } from '../unit/ctl/support/ctl-diff.js';

/** Retries a call through elections (leader loss answers Unavailable for a moment). */
async function eventually<T>(call: () => Promise<Result<T>>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await call();
    if (r.ok) return r.value;
    if (Date.now() > deadline) throw new Error(`still failing: ${r.error.message}`);
    await sleep(100);
  }
}

const MEMBER_MASKS: ReadonlyArray<readonly [RegExp, string]> = [
  [/Member\s+[0-9a-f]{1,16} /g, 'Member <id> '],
  [/cluster\s+[0-9a-f]{1,16}$/gm, 'cluster <id>'],
  [/^[0-9a-f]{1,16}, /gm, '<id>, '],
];

/**
 * Masked output in a canonical order: a new member's random id decides its place in the
 * id-sorted member list, so list rows and ETCD_INITIAL_CLUSTER entries are sorted.
 */
function show(r: CtlResult): string {
  const text = mask(`exit ${r.code}\n${r.stdout}--- stderr\n${r.stderr}`, { extra: MEMBER_MASKS });
  const rows = text.split('\n');
  const sorted = rows.map((l) => (l.startsWith('ETCD_INITIAL_CLUSTER="') ? `ETCD_INITIAL_CLUSTER="${l.slice(22, -1).split(',').sort().join(',')}"` : l));
  const isRow = (l: string): boolean => l.startsWith('<id>, ') || (l.startsWith('| <id> |') && l.endsWith('|'));
  const firstRow = sorted.findIndex(isRow);
  if (firstRow < 0) return sorted.join('\n');
  let end = firstRow;
  while (end < sorted.length && isRow(sorted[end])) end++;
  return [...sorted.slice(0, firstRow), ...sorted.slice(firstRow, end).sort(), ...sorted.slice(end)].join('\n');
}

for (const kind of serverKinds()) {
  void describe(`3-member ${kind} cluster`, () => {
    let members: Member[];
    let client: Client;
    let startedAt = 0;

    before(async () => {
      members = await startCluster(kind, 3, { env: kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {} });
      client = createClient({ endpoints: members.map((m) => m.endpoint), dialTimeoutMs: 2000, commandTimeoutMs: 5000 });
      await eventually(() => client.kv.put('ready', '1'));
      startedAt = Date.now();
    });
    after(async () => {
      client?.close();
      await Promise.all((members ?? []).map((m) => m.kill9()));
    });

    void it('reads are balanced over the endpoints; an endpoint that is down is skipped', async () => {
      const seen = new Set<bigint>();
      for (let i = 0; i < 9; i++) {
        const r = await client.kv.get('ready', { serializable: true });
        assert.ok(r.ok, r.ok ? '' : r.error.message);
        seen.add(r.value.header?.memberId ?? 0n);
      }
      assert.ok(seen.size >= 2, `answered by ${seen.size} member(s)`);
      const [port] = await freePorts('127.0.0.1', 1);
      const withDead = createClient({ endpoints: [`127.0.0.1:${port}`, ...members.map((m) => m.endpoint)], dialTimeoutMs: 2000, commandTimeoutMs: 5000 });
      try {
        for (let i = 0; i < 4; i++) assert.ok((await withDead.kv.get('ready')).ok);
      } finally {
        withDead.close();
      }
    });

    void it('kvstorectl member commands print what etcdctl prints', async () => {
      if (kind === 'kvstore') {
        const list = await kvstorectl(members[0].endpoint, ['member', 'list']);
        assert.equal(list.code, 0, list.stderr);
        assert.equal(list.stdout.trim().split('\n').length, 3);
      }
      // The reference is etcdctl against etcd; on kvstore the same sequence is compared with it.
      if (kind !== 'etcd') return;
      // Reconfiguration is refused until the leader has seen every peer for 5 s (strict check).
      await sleep(Math.max(0, startedAt + 6000 - Date.now()));
      const seq = async (tool: 'etcdctl' | 'kvstorectl', peer: string, peer2: string): Promise<string> => {
        const run = (args: string[]) => (tool === 'etcdctl' ? etcdctl(members[0].endpoint, args) : kvstorectl(members[0].endpoint, args));
        const out: string[] = [];
        out.push(show(await run(['member', 'list', '-w', 'table'])));
        const added = await run(['member', 'add', 'newbie', `--peer-urls=${peer}`, '--learner']);
        out.push(show(added));
        const id = /Member\s+([0-9a-f]+) added/.exec(added.stdout)?.[1] ?? '0';
        out.push(show(await run(['member', 'list'])));
        out.push(show(await run(['member', 'promote', id])));
        out.push(show(await run(['member', 'update', id, `--peer-urls=${peer2}`])));
        out.push(show(await run(['member', 'list', '-w', 'json'])).replace(/"members":\[.*\]/, '"members":[…]'));
        out.push(show(await run(['member', 'remove', id])));
        out.push(show(await run(['member', 'remove', id])));
        out.push(show(await run(['member', 'add', 'bad', '--peer-urls=notaurl'])));
        return out.join('\n');
      };
      const [p1, p2, p3, p4] = await freePorts('127.0.0.1', 4);
      const expected = await seq('etcdctl', `http://127.0.0.1:${p1}`, `http://127.0.0.1:${p2}`);
      const actual = await seq('kvstorectl', `http://127.0.0.1:${p3}`, `http://127.0.0.1:${p4}`);
      if (process.env.DIFF_SHOW === '1') process.stderr.write(`# member commands (etcdctl)\n${expected}\n`);
      assert.equal(actual, expected);
    });

    void it('a watch resumes on another member after its member is killed: no event skipped or repeated', async () => {
      const start = await eventually(() => client.kv.put('resume', '0'));
      const watcher = createClient({ endpoints: members.map((m) => m.endpoint), dialTimeoutMs: 2000 });
      try {
        const w = watcher.watch('resume', { startRevision: (start.header?.revision ?? 0n) + 1n, createdNotify: true });
        const values: string[] = [];
        let killed = false;
        for await (const r of w) {
          assert.ok(r.ok, r.ok ? '' : r.error.message);
          if (r.value.created) {
            for (let i = 1; i <= 5; i++) await eventually(() => client.kv.put('resume', String(i)));
            continue;
          }
          values.push(...r.value.events.map((e) => e.kv?.value.toString() ?? ''));
          if (!killed && values.length >= 5) {
            killed = true;
            const status = await Promise.all(members.map((m) => client.maintenance.status({ endpoint: m.endpoint })));
            const servingId = r.value.header.memberId;
            const victim = members[status.findIndex((s) => s.ok && s.value.header?.memberId === servingId)];
            assert.ok(victim !== undefined, 'the serving member is known');
            await victim.kill9();
            const others = createClient({ endpoints: members.filter((m) => m !== victim).map((m) => m.endpoint), dialTimeoutMs: 2000, commandTimeoutMs: 3000 });
            try {
              for (let i = 6; i <= 10; i++) await eventually(() => others.kv.put('resume', String(i)));
            } finally {
              others.close();
            }
          }
          if (values.length >= 10) w.close();
        }
        assert.deepEqual(values, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
      } finally {
        watcher.close();
      }
    });
  });
}
