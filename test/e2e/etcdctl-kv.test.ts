/**
 * etcdctl 3.4 key-value commands against a spawned member: put, get (prefix, from-key, limit,
 * sort, rev, keys-only, counts, -w json/fields), del (prefix, prev-kv), txn and compaction.
 * Runs against every server in E2E_SERVERS (default kvstore,etcd; etcd checks the test itself).
 * etcdctl 3.4 has no `get --count-only` (3.5 added it): counts are read from `-w json`/`-w fields`.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ctlFor, serverKinds, startMember, type BoundCtl } from '../support/processes.js';

interface JsonKv { key: string; value?: string; create_revision: number; mod_revision: number; version: number }
interface JsonRange { header: { revision: number }; kvs?: JsonKv[]; count?: number; more?: boolean }

const b64 = (s: string) => Buffer.from(s).toString('base64');
const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join('');

for (const kind of serverKinds()) {
  void describe(`etcdctl kv commands against ${kind}`, () => {
    let ctl: BoundCtl;

    before(async () => {
      ctl = ctlFor(await startMember(kind, { name: 'kv' }));
    });

    void it('put prints OK; get prints key and value; a missing key prints nothing', async () => {
      assert.equal(await ctl.ok(['put', 'one/a', 'hello']), 'OK\n');
      assert.equal(await ctl.ok(['get', 'one/a']), lines('one/a', 'hello'));
      assert.equal(await ctl.ok(['get', 'one/a', '--print-value-only']), lines('hello'));
      assert.equal(await ctl.ok(['get', 'one/missing']), '');
    });

    void it('put --prev-kv prints the previous pair', async () => {
      await ctl.ok(['put', 'prev/a', 'v1']);
      assert.equal(await ctl.ok(['put', 'prev/a', 'v2', '--prev-kv']), lines('OK', 'prev/a', 'v1'));
    });

    void it('get --prefix returns the keys under the prefix in key order', async () => {
      for (const [k, v] of [['pre/c', '3'], ['pre/a', '1'], ['pre/b', '2'], ['pref', 'x'], ['prd', 'y']]) await ctl.ok(['put', k, v]);
      assert.equal(await ctl.ok(['get', 'pre/', '--prefix']), lines('pre/a', '1', 'pre/b', '2', 'pre/c', '3'));
      assert.equal(await ctl.ok(['get', 'pre/a', 'pre/c']), lines('pre/a', '1', 'pre/b', '2'), 'explicit [key, range_end)');
    });

    void it('get --from-key returns every key at or after the key', async () => {
      for (const k of ['~from/a', '~from/b', '~from/c']) await ctl.ok(['put', k, k.slice(-1)]);
      assert.equal(await ctl.ok(['get', '~from/b', '--from-key']), lines('~from/b', 'b', '~from/c', 'c'));
    });

    void it('get --limit truncates and reports more and the full count', async () => {
      for (const k of ['lim/a', 'lim/b', 'lim/c']) await ctl.ok(['put', k, 'v']);
      assert.equal(await ctl.ok(['get', 'lim/', '--prefix', '--limit=2']), lines('lim/a', 'v', 'lim/b', 'v'));
      const r = JSON.parse(await ctl.ok(['get', 'lim/', '--prefix', '--limit=1', '-w', 'json'])) as JsonRange;
      assert.deepEqual({ keys: r.kvs?.map((kv) => kv.key), count: r.count, more: r.more }, { keys: [b64('lim/a')], count: 3, more: true });
      const fields = await ctl.ok(['get', 'lim/', '--prefix', '--limit=1', '-w', 'fields']);
      assert.match(fields, /^"More" : true$/m);
      assert.match(fields, /^"Count" : 3$/m);
    });

    void it('get --sort-by and --order sort by the requested target', async () => {
      await ctl.ok(['put', 'sort/b', 'z']);
      await ctl.ok(['put', 'sort/a', 'y']);
      await ctl.ok(['put', 'sort/c', 'x']);
      await ctl.ok(['put', 'sort/a', 'w']);
      const keys = async (...flags: string[]) =>
        (await ctl.ok(['get', 'sort/', '--prefix', '--keys-only', ...flags])).split('\n').filter((s) => s !== '');
      assert.deepEqual(await keys('--sort-by=MODIFY', '--order=DESCEND'), ['sort/a', 'sort/c', 'sort/b']);
      assert.deepEqual(await keys('--sort-by=MODIFY'), ['sort/b', 'sort/c', 'sort/a'], 'a target without an order sorts ascending');
      assert.deepEqual(await keys('--sort-by=CREATE', '--order=ASCEND'), ['sort/b', 'sort/a', 'sort/c']);
      assert.deepEqual(await keys('--sort-by=VALUE'), ['sort/a', 'sort/c', 'sort/b']);
      assert.deepEqual(await keys('--sort-by=VERSION', '--order=DESCEND', '--limit=1'), ['sort/a']);
      assert.deepEqual(await keys('--order=DESCEND'), ['sort/c', 'sort/b', 'sort/a']);
    });

    void it('get --rev reads the value at an earlier revision', async () => {
      await ctl.ok(['put', 'rev/a', 'first']);
      const first = await ctl.revision();
      await ctl.ok(['put', 'rev/a', 'second']);
      assert.equal(await ctl.ok(['get', 'rev/a', `--rev=${first}`]), lines('rev/a', 'first'));
      assert.equal(await ctl.ok(['get', 'rev/a']), lines('rev/a', 'second'));
      assert.equal(await ctl.ok(['get', 'rev/a', `--rev=${first - 1}`]), '', 'before creation the key does not exist');
    });

    void it('get --keys-only prints keys with empty values', async () => {
      await ctl.ok(['put', 'ko/a', 'secret']);
      await ctl.ok(['put', 'ko/b', 'secret']);
      assert.equal(await ctl.ok(['get', 'ko/', '--prefix', '--keys-only']), lines('ko/a', '', 'ko/b', ''));
      const r = JSON.parse(await ctl.ok(['get', 'ko/', '--prefix', '--keys-only', '-w', 'json'])) as JsonRange;
      assert.deepEqual(r.kvs?.map((kv) => [kv.key, kv.value]), [[b64('ko/a'), undefined], [b64('ko/b'), undefined]]);
      assert.equal(r.count, 2);
    });

    void it('get -w json shows revisions, versions and base64 keys and values', async () => {
      await ctl.ok(['put', 'json/a', 'v1']);
      const created = await ctl.revision();
      await ctl.ok(['put', 'json/a', 'v2']);
      const r = JSON.parse(await ctl.ok(['get', 'json/a', '-w', 'json'])) as JsonRange;
      assert.equal(r.header.revision, created + 1);
      assert.deepEqual(r.kvs, [{ key: b64('json/a'), value: b64('v2'), create_revision: created, mod_revision: created + 1, version: 2 }]);
      assert.equal(r.count, 1);
    });

    void it('del deletes one key, a prefix with --prev-kv, and prints 0 for nothing', async () => {
      for (const [k, v] of [['del/a', '1'], ['del/b', '2'], ['del/c', '3']]) await ctl.ok(['put', k, v]);
      assert.equal(await ctl.ok(['del', 'del/a']), lines('1'));
      const before = await ctl.revision();
      assert.equal(await ctl.ok(['del', 'del/', '--prefix', '--prev-kv']), lines('2', 'del/b', '2', 'del/c', '3'));
      assert.equal(await ctl.revision(), before + 1, 'one delete range is one revision');
      assert.equal(await ctl.ok(['del', 'del/nothing']), lines('0'));
      assert.equal(await ctl.revision(), before + 1, 'deleting nothing does not bump the revision');
      assert.equal(await ctl.ok(['get', 'del/', '--prefix']), '');
    });

    void it('txn runs the success branch when compares hold, the failure branch otherwise', async () => {
      await ctl.ok(['put', 'txn/a', '1']);
      const success = await ctl.ok(['txn'], { input: 'value("txn/a") = "1"\n\nput txn/b 2\nget txn/a\ndel txn/c\n\nput txn/x 9\n\n' });
      assert.equal(success, lines('SUCCESS', '', 'OK', '', 'txn/a', '1', '', '0'));
      const failure = await ctl.ok(['txn'], { input: 'value("txn/a") = "2"\n\nput txn/b 3\n\nput txn/x 9\nget txn/x\n\n' });
      assert.equal(failure, lines('FAILURE', '', 'OK', '', 'txn/x', '9'));
      assert.equal(await ctl.ok(['get', 'txn/', '--prefix']), lines('txn/a', '1', 'txn/b', '2', 'txn/x', '9'));
    });

    void it('txn compares on create revision (absent key) and reports in json', async () => {
      const rev = await ctl.revision();
      const out = await ctl.ok(['txn', '-w', 'json'], { input: 'create("txn/new") = "0"\n\nput txn/new 1\n\n\n' });
      const r = JSON.parse(out) as { header: { revision: number }; succeeded?: boolean; responses: unknown[] };
      assert.equal(r.succeeded, true);
      assert.equal(r.header.revision, rev + 1);
      assert.deepEqual(r.responses, [{ Response: { ResponsePut: { header: { revision: rev + 1 } } } }]);
      const again = JSON.parse(await ctl.ok(['txn', '-w', 'json'], { input: 'create("txn/new") = "0"\n\nput txn/new 2\n\n\n' })) as { succeeded?: boolean };
      assert.equal(again.succeeded, undefined, 'false is omitted in json');
      assert.equal(await ctl.ok(['get', 'txn/new', '--print-value-only']), lines('1'));
    });

    void it('compaction removes history below the revision; later reads fail with compacted', async () => {
      await ctl.ok(['put', 'cmp/a', 'old']);
      const old = await ctl.revision();
      await ctl.ok(['put', 'cmp/a', 'new']);
      const at = await ctl.revision();
      assert.equal(await ctl.ok(['compaction', '--physical', String(at)]), lines(`compacted revision ${at}`));
      assert.equal(await ctl.ok(['get', 'cmp/a', `--rev=${at}`]), lines('cmp/a', 'new'), 'the compacted revision itself is readable');
      const r = await ctl.fails(['get', 'cmp/a', `--rev=${old}`]);
      assert.match(r.stderr, /^Error: etcdserver: mvcc: required revision has been compacted$/m);
      assert.equal(await ctl.ok(['get', 'cmp/a']), lines('cmp/a', 'new'));
    });
  });
}
