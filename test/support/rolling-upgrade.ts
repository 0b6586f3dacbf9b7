/**
 * One rolling upgrade of a 3-member kvstore cluster from one minor line to the next, while a
 * client writes continuously (SPEC "States and transitions", "Upgrade rules"). A test file
 * gives the two versions and the interface rows of SPEC that change between them; the flow is:
 *
 * 1. three members on `from`; the cluster version settles at `from`'s line; a PutStream writes
 *    round-robin through all members, retrying a failed put once through a member that is not
 *    being replaced;
 * 2. members are replaced one by one (SIGTERM, same member started on `to`); after each one:
 *    the member and the cluster are healthy and writes go on; while some member still runs
 *    `from`, every `/version` reports the old cluster version, the gateway keeps the old
 *    prefixes (also on replaced members), `/health` has the body of each member's binary line,
 *    the RPC `to` introduced is not capable; the replaced member logged the cluster version on
 *    start (the initial decision, already the old line, and its capabilities) and warns that it
 *    is not up to date, members on `from` warn that a member has a higher version;
 * 3. after the last one: both `/version` fields report `to`'s line on every member, every member
 *    logged the update and the enabled capabilities, the gateway switched, the new RPC works, and
 *    no version warning is logged any more (observed over several monitor periods);
 * 4. no acknowledged put is lost (read back through every member); no put failed twice.
 *
 * Every wait is bounded (WAIT_MS); nothing asserts how long a step took. UPGRADE_LOGS_DIR=<dir>
 * keeps the members' output (see keepLogs).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { etcdctl } from './etcdctl.js';
import { startCluster } from './members.js';
import { countRecords, lastRunLog, lastRunRecords, logRecords } from './member-log.js';
import { versionOf } from './member-http.js';
import { openKv, readPrefix } from './kv-client.js';
import { PutStream, type PutStreamReport } from './put-stream.js';
import { unmatchedAcks } from './write-load.js';
import type { Member } from './server-process.js';
import {
  assertClusterHealthy, expectGateway, expectHealthBody, expectMetricNames, lineOf, replaceMember, versionEnv, waitUntil,
  type GatewayRow, type MetricNameRows,
} from './upgrade-steps.js';

/** An RPC the target line introduced, probed through one member: `ok` or the error text. */
export interface NewRpcProbe {
  /** e.g. `Lease.LeaseLeases`. */
  readonly name: string;
  readonly call: (through: Member) => Promise<string>;
  /**
   * Expected outcome once the cluster version is the target line (always: not `not capable`).
   * Omitted where kvstore serves the method as Unimplemented, so only the capability gate is checked.
   */
  readonly after?: RegExp;
}

/** The versions and interface rows of one upgrade. */
export interface UpgradeRows {
  /** e.g. `3.4.0`. */
  readonly from: string;
  /** e.g. `3.5.0`, the next minor line. */
  readonly to: string;
  /** Gateway prefixes while the cluster version is `from`'s line (on every member, replaced or not). */
  readonly gatewayBefore: Readonly<Record<string, GatewayRow>>;
  /** Gateway prefixes once the cluster version is `to`'s line. */
  readonly gatewayAfter: Readonly<Record<string, GatewayRow>>;
  /** `/health` body of a member by its binary's line. */
  readonly healthBody: { readonly from: string; readonly to: string };
  /** Metric names while the cluster version is `from`'s line and once it is `to`'s (every member). */
  readonly metrics?: { readonly before: MetricNameRows; readonly after: MetricNameRows };
  /** Answers `etcdserver: not capable` until the cluster version reaches `to`'s line. */
  readonly newRpc: NewRpcProbe;
}

const NOT_UP_TO_DATE = 'the local kvstore version is not up-to-date';
const HIGHER_VERSION = 'a member has a higher version';
const NOT_CAPABLE = /etcdserver: not capable/;
/** How long "no new warning" is observed: more than two 4 s version-monitor periods. */
const QUIET_MS = 10_000;
const KEYS = 'upgrade/stream/';
const PROBE_KEY = 'upgrade/gateway-probe';
const PROBE_VALUE = 'gateway-probe-value';

/** With UPGRADE_LOGS_DIR set, writes every member's output there (`<name>.log`), for diagnosis. */
export function keepLogs(members: readonly Member[], report?: PutStreamReport): void {
  const dir = process.env.UPGRADE_LOGS_DIR;
  if (dir === undefined || dir === '') return;
  mkdirSync(dir, { recursive: true });
  for (const m of members) writeFileSync(join(dir, `${m.name}.log`), m.logs());
  if (report !== undefined) {
    const failures = { acked: report.acked.size, retried: report.retried, failedTwice: report.failedTwice };
    writeFileSync(join(dir, 'put-failures.json'), JSON.stringify(failures, null, 1));
  }
}

export function rollingUpgradeSuite(rows: UpgradeRows): void {
  const [fromLine, toLine] = [lineOf(rows.from), lineOf(rows.to)];

  void describe(`a rolling upgrade of 3 kvstore members from ${rows.from} to ${rows.to} under a continuous write load`, () => {
    let members: Member[] = [];
    let stream: PutStream | undefined;
    let report: PutStreamReport | undefined;

    const binaryOf = (m: Member): string => m.env.KVSTORE_SERVER_VERSION;
    const onTo = (): Member[] => members.filter((m) => binaryOf(m) === rows.to);
    const onFrom = (): Member[] => members.filter((m) => binaryOf(m) === rows.from);

    const expectVersions = async (cluster: string): Promise<void> => {
      for (const m of members) {
        assert.deepEqual(await versionOf(m), { etcdserver: binaryOf(m), etcdcluster: cluster }, `/version of ${m.name}`);
      }
    };
    const expectHealthBodies = async (): Promise<void> => {
      for (const m of members) await expectHealthBody(m, binaryOf(m) === rows.to ? rows.healthBody.to : rows.healthBody.from);
    };
    const writesGoOn = async (): Promise<void> => {
      const s = stream!;
      const floor = s.ackedCount + 20;
      await waitUntil('the writer gets 20 more puts acknowledged', () => assert.ok(s.ackedCount >= floor, `${s.ackedCount} acknowledged`));
    };

    before(async () => {
      members = await startCluster('kvstore', 3, { env: versionEnv(rows.from) });
      await waitUntil(`every member reports cluster version ${fromLine}.0`, () => expectVersions(`${fromLine}.0`));
      const put = await etcdctl(members[0].endpoint, ['put', PROBE_KEY, PROBE_VALUE]);
      assert.equal(put.code, 0, put.stderr);
      stream = new PutStream(members.map((m) => m.endpoint), KEYS);
      stream.start();
      await writesGoOn();
    });

    after(async () => {
      if (report === undefined) await stream?.stop();
      keepLogs(members, report);
    });

    void it(`serves the ${fromLine} interface before the upgrade`, async () => {
      await expectVersions(`${fromLine}.0`);
      await expectHealthBodies();
      for (const m of members) await expectGateway(m, rows.gatewayBefore, PROBE_KEY, PROBE_VALUE);
      assert.match(await rows.newRpc.call(members[0]), NOT_CAPABLE, `${rows.newRpc.name} before the upgrade`);
    });

    for (const i of [0, 1, 2]) {
      const last = i === 2;
      const label = `member ${i + 1} of 3`;

      void it(`replaces ${label} with ${rows.to}: it stops cleanly, serves again, the cluster is healthy and writes go on`, async () => {
        const m = members[i];
        const higherBefore = new Map(onFrom().filter((o) => o !== m).map((o) => [o, countRecords(o, HIGHER_VERSION)]));
        stream!.setMaintenance(m.endpoint, true);
        assert.equal(await replaceMember(m, rows.to), 0, `exit code of ${m.name} after SIGTERM`);
        assert.equal(binaryOf(m), rows.to);
        await waitUntil('every member and the cluster are healthy', () => assertClusterHealthy(members));
        stream!.setMaintenance(m.endpoint, false);
        await writesGoOn();
        if (last) return;
        // While versions differ, the version monitor warns on both sides.
        await waitUntil(`${m.name} (on ${rows.to}) warns "${NOT_UP_TO_DATE}"`, () => {
          assert.ok(lastRunRecords(m, NOT_UP_TO_DATE).length > 0);
        });
        for (const [o, n] of higherBefore) {
          await waitUntil(`${o.name} (on ${rows.from}) warns "${HIGHER_VERSION}" again`, () => assert.ok(countRecords(o, HIGHER_VERSION) > n));
        }
      });

      void it(`${label} on ${rows.to} logged the cluster version on start: initial ${fromLine} (decided directly, no 3.0 first), capabilities enabled`, () => {
        const m = members[i];
        const initial = lastRunRecords(m, 'set initial cluster version').map((r) => r['cluster-version']);
        const updated = lastRunRecords(m, 'updated cluster version').map((r) => [r.from, r.to]);
        const enabled = lastRunRecords(m, 'enabled capabilities for version').map((r) => r['cluster-version']);
        // The new cluster's first decision was its line (a member that had not started yet does not hold
        // it back), so no raise to it follows; the last member's run may log the raise to the new line.
        const problems = [
          ...(initial.length === 1 && initial[0] === fromLine ? [] : [`"set initial cluster version" ${fromLine} once; seen: ${JSON.stringify(initial)}`]),
          ...(updated.every(([, to]) => to === toLine) ? [] : [`no "updated cluster version" but to ${toLine}; seen: ${JSON.stringify(updated)}`]),
          ...(enabled.includes(fromLine) ? [] : [`"enabled capabilities for version" ${fromLine}; seen: ${JSON.stringify(enabled)}`]),
        ];
        const versionLines = logRecords(lastRunLog(m)).filter((r) => /cluster version/.test(r.msg)).map((r) => r.msg);
        assert.deepEqual(problems, [], `log records missing from the new run of ${m.name} (its cluster-version records: ${JSON.stringify(versionLines)})`);
      });

      if (!last) {
        void it(`with ${i + 1} of 3 on ${rows.to}, the cluster keeps the ${fromLine} interface on every member`, async () => {
          await expectVersions(`${fromLine}.0`);
          await expectHealthBodies();
          for (const m of members) await expectGateway(m, rows.gatewayBefore, PROBE_KEY, PROBE_VALUE);
          if (rows.metrics !== undefined) for (const m of members) await expectMetricNames(m, rows.metrics.before);
          for (const m of onTo()) {
            assert.match(await rows.newRpc.call(m), NOT_CAPABLE, `${rows.newRpc.name} through ${m.name} (on ${rows.to})`);
          }
        });
      }
    }

    void it(`once all 3 run ${rows.to}, every member reports ${toLine}.0 as server and cluster version`, async () => {
      await waitUntil(`every member reports cluster version ${toLine}.0`, () => expectVersions(`${toLine}.0`));
      assert.equal(onTo().length, 3);
    });

    void it(`every member logged the update from ${fromLine} to ${toLine} and enabled ${toLine}'s capabilities`, async () => {
      for (const m of members) {
        // The records travel through the member's stderr pipe: wait (bounded) for them to arrive.
        await waitUntil(`${m.name} logged the update`, () => {
          const updated = lastRunRecords(m, 'updated cluster version').map((r) => [r.from, r.to]);
          assert.deepEqual(updated.at(-1), [fromLine, toLine], `"updated cluster version" on ${m.name}: ${JSON.stringify(updated)}`);
          const enabled = lastRunRecords(m, 'enabled capabilities for version').map((r) => r['cluster-version']);
          assert.equal(enabled.at(-1), toLine, `"enabled capabilities for version" on ${m.name}: ${JSON.stringify(enabled)}`);
        });
      }
    });

    void it(`serves the ${toLine} interface on every member`, async () => {
      await expectHealthBodies();
      for (const m of members) await expectGateway(m, rows.gatewayAfter, PROBE_KEY, PROBE_VALUE);
      if (rows.metrics !== undefined) for (const m of members) await expectMetricNames(m, rows.metrics.after);
      for (const m of members) {
        const outcome = await rows.newRpc.call(m);
        assert.doesNotMatch(outcome, NOT_CAPABLE, `${rows.newRpc.name} through ${m.name}`);
        if (rows.newRpc.after !== undefined) assert.match(outcome, rows.newRpc.after, `${rows.newRpc.name} through ${m.name}`);
      }
    });

    void it('logs no version warning any more', async () => {
      const counts = (): number[] => members.flatMap((m) => [countRecords(m, NOT_UP_TO_DATE), countRecords(m, HIGHER_VERSION)]);
      const seen = counts();
      await sleep(QUIET_MS);
      assert.deepEqual(counts(), seen, `version warnings (${NOT_UP_TO_DATE} / ${HIGHER_VERSION}) per member over ${QUIET_MS} ms`);
    });

    void it('lost no acknowledged put: each reads back with its value and revision through every member', async () => {
      report = await stream!.stop();
      const acked = report.acked;
      assert.ok(acked.size > 0);
      for (const m of members) {
        const kv = openKv(m.endpoint);
        try {
          const { kvs } = await readPrefix(kv, KEYS);
          const unmatched = unmatchedAcks(acked, kvs);
          assert.deepEqual(unmatched.slice(0, 10), [], `acknowledged puts missing or different through ${m.name} (${unmatched.length} of ${acked.size})`);
        } finally {
          kv.close();
        }
      }
    });

    void it('failed no put twice: a put that failed succeeded when retried once against another member', () => {
      assert.ok(report !== undefined, 'the write load was stopped');
      assert.deepEqual(report.failedTwice, [], `puts whose retry failed too (of ${report.acked.size} acknowledged, ${report.retried.length} retried)`);
    });
  });
}
