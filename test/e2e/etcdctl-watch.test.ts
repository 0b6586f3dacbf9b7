/**
 * etcdctl 3.4 watch against a spawned member: history replay from --rev, --prefix, ranges,
 * --prev-kv, -w json event shapes, new events only without --rev (in order, none skipped),
 * a compacted start revision, and interactive progress.
 * Watches that must see given writes start from an explicit revision, so no test depends on
 * when the watch is established. Runs against every server in E2E_SERVERS (default kvstore,etcd),
 * and once more against kvstore with its watches served by the front-end thread
 * (`KVSTORE_CLIENT_THREADS=1`, server/frontend/local-watches.ts): same expectations, and the
 * last test checks that the thread served them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { FRONT_END_WATCHES, keepFrontEndWatches, LOCAL_WATCH_STREAMS, metricValue, type KeptWatch } from '../support/front-end-watches.js';
import { ctlFor, eventually, serverKinds, spawnEtcdctl, startMember, type BoundCtl, type Member, type ServerKind } from '../support/processes.js';

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join('');

const variants: Array<{ readonly kind: ServerKind; readonly title: string; readonly frontEnd: boolean }> = serverKinds().map((kind) => ({ kind, title: kind, frontEnd: false }));
if (serverKinds().includes('kvstore')) variants.push({ kind: 'kvstore', title: 'kvstore, watches served by the front-end thread', frontEnd: true });

for (const { kind, title, frontEnd } of variants) {
  void describe(`etcdctl watch against ${title}`, () => {
    let member: Member;
    let ctl: BoundCtl;
    /** With the front end: the stream that keeps its replica, and the etcdctl watches since (re)start. */
    let keeper: KeptWatch | undefined;
    let watches = 0;

    /** Runs `watch <args>` until its stdout is at least as long as `expected`, then interrupts it. */
    async function watchOutput(args: string[], expected: string, writes: () => Promise<void>): Promise<string> {
      const w = spawnEtcdctl(member.endpoint, ['watch', ...args]);
      watches++;
      await writes();
      await w.waitFor((s) => s.length >= expected.length);
      await w.stop('SIGINT');
      return w.stdout();
    }

    before(async () => {
      member = await startMember(kind, { name: 'watch', env: frontEnd ? FRONT_END_WATCHES : {} });
      ctl = ctlFor(member);
      if (frontEnd) keeper = await keepFrontEndWatches(member);
    });
    after(() => keeper?.close());

    void it('watch --rev replays history and continues with live events', async () => {
      await ctl.ok(['put', 'h/a', '1']);
      const from = await ctl.revision();
      await ctl.ok(['put', 'h/a', '2']);
      const expected = lines('PUT', 'h/a', '1', 'PUT', 'h/a', '2', 'PUT', 'h/a', '3', 'DELETE', 'h/a', '');
      const out = await watchOutput(['h/a', `--rev=${from}`], expected, async () => {
        await ctl.ok(['put', 'h/a', '3']);
        await ctl.ok(['del', 'h/a']);
      });
      assert.equal(out, expected);
    });

    void it('watch --prefix --prev-kv prints previous pairs for updates and deletes', async () => {
      await ctl.ok(['put', 'p/a', '0']);
      const from = (await ctl.revision()) + 1;
      const expected = lines(
        'PUT', 'p/a', '0', 'p/a', '1',
        'PUT', 'p/b', '2',
        'DELETE', 'p/a', '1', 'p/a', '',
        'DELETE', 'p/b', '2', 'p/b', '',
      );
      const out = await watchOutput(['--prefix', 'p/', '--prev-kv', `--rev=${from}`], expected, async () => {
        await ctl.ok(['put', 'p/a', '1']);
        await ctl.ok(['put', 'p/b', '2']);
        await ctl.ok(['put', 'q/ignored', 'x']);
        await ctl.ok(['del', 'p/', '--prefix']);
      });
      assert.equal(out, expected);
    });

    void it('after a restart (values only on disk) --prev-kv watches and put --prev-kv show the previous value', async () => {
      await ctl.ok(['put', 'rs/a', 'before']);
      keeper?.close();
      await member.restart();
      watches = 0;
      if (frontEnd) keeper = await keepFrontEndWatches(member);
      const from = (await ctl.revision()) + 1;
      const expected = lines('PUT', 'rs/a', 'before', 'rs/a', 'after', 'PUT', 'rs/a', 'after', 'rs/a', 'again');
      let putOut = '';
      const out = await watchOutput(['rs/a', '--prev-kv', `--rev=${from}`], expected, async () => {
        await ctl.ok(['put', 'rs/a', 'after']);
        putOut = await ctl.ok(['put', 'rs/a', 'again', '--prev-kv']);
      });
      assert.equal(out, expected);
      assert.equal(putOut, lines('OK', 'rs/a', 'after'));
    });

    void it('watch <key> <range_end> sees only keys in [key, range_end)', async () => {
      const from = (await ctl.revision()) + 1;
      const expected = lines('PUT', 'r/a', '1', 'PUT', 'r/b', '2', 'PUT', 'r/b', '4');
      const out = await watchOutput(['r/a', 'r/c', `--rev=${from}`], expected, async () => {
        for (const [k, v] of [['r/a', '1'], ['r/b', '2'], ['r/c', '3'], ['r/b', '4']]) await ctl.ok(['put', k, v]);
      });
      assert.equal(out, expected);
    });

    void it('watch -w json shows event types, revisions and bare delete events', async () => {
      const from = (await ctl.revision()) + 1;
      const w = spawnEtcdctl(member.endpoint, ['watch', 'j/a', `--rev=${from}`, '-w', 'json']);
      watches++;
      await ctl.ok(['put', 'j/a', 'v']);
      await ctl.ok(['del', 'j/a']);
      type Response = { Header: { revision: number }; Events: unknown[]; Canceled: boolean };
      const parse = (s: string) => s.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Response);
      // Events may come in one response (catch-up) or two (live): count events, not lines.
      await w.waitFor((s) => s.endsWith('\n') && parse(s).flatMap((r) => r.Events).length >= 2);
      await w.stop('SIGINT');
      const responses = parse(w.stdout());
      const events = responses.flatMap((r) => r.Events);
      const key = Buffer.from('j/a').toString('base64');
      assert.deepEqual(events, [
        { kv: { key, create_revision: from, mod_revision: from, version: 1, value: Buffer.from('v').toString('base64') } },
        { type: 1, kv: { key, mod_revision: from + 1 } },
      ]);
      assert.deepEqual(responses.map((r) => r.Canceled), responses.map(() => false));
      assert.equal(responses.at(-1)?.Header.revision, from + 1);
    });

    void it('watch without --rev sees new events only, in order, none skipped or repeated', async () => {
      const w = spawnEtcdctl(member.endpoint, ['watch', 'live/a']);
      watches++;
      await ctl.ok(['put', 'live/a', 'before']);
      let i = 0;
      // The watch is established at some unknown point: keep writing until it reports.
      while (!w.stdout().includes('PUT\n') && i < 200) {
        await ctl.ok(['put', 'live/a', String(i++)]);
        await sleep(50);
      }
      const last = i;
      await ctl.ok(['put', 'live/a', String(last)]);
      await w.waitFor(`\n${last}\n`);
      await w.stop('SIGINT');
      const values = w.stdout().trim().split('\n').filter((_, n) => n % 3 === 2);
      assert.ok(!values.includes('before') || values[0] === 'before', 'nothing before the first event is missing');
      const numbers = values.filter((v) => v !== 'before').map(Number);
      assert.deepEqual(numbers, Array.from({ length: numbers.length }, (_, n) => last - numbers.length + 1 + n));
    });

    void it('watch from a compacted revision is canceled by the server', async () => {
      await ctl.ok(['put', 'c/a', '1']);
      const old = await ctl.revision();
      await ctl.ok(['put', 'c/a', '2']);
      await ctl.ok(['compaction', '--physical', String(await ctl.revision())]);
      const w = spawnEtcdctl(member.endpoint, ['watch', 'c/a', `--rev=${old}`]);
      watches++;
      const r = await w.result();
      assert.equal(r.code, 5);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, lines('watch was canceled (etcdserver: mvcc: required revision has been compacted)', 'Error: watch is canceled by the server'));
    });

    void it('watch -i: progress prints the current revision', async () => {
      const w = spawnEtcdctl(member.endpoint, ['watch', '-i'], { stdin: true });
      watches++;
      const from = (await ctl.revision()) + 1;
      w.write(`watch i/a --rev=${from}\n`);
      await ctl.ok(['put', 'i/a', '1']);
      await w.waitFor(lines('PUT', 'i/a', '1'));
      const rev = await ctl.revision();
      w.write('progress\n');
      await w.waitFor('progress notify:');
      await w.stop('SIGINT');
      assert.equal(w.stdout(), lines('PUT', 'i/a', '1', `progress notify: ${rev}`));
    });

    if (frontEnd) {
      void it('the watches above were served by the front-end thread', async () => {
        // The keeper, and each etcdctl watch since the restart (the thread reports about once a second).
        await eventually('the thread reports its streams', async () => ((await metricValue(member, LOCAL_WATCH_STREAMS)) >= watches + 1 ? true : undefined), {
          describe: () => `${watches} watches`,
        });
      });
    }
  });
}
