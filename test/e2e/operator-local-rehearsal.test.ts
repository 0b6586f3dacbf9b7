/**
 * Local mode end to end, the upgrade rehearsal: the operator (LocalRunner, in this process)
 * runs a real 1-member 3.4.0 cluster as a `kvstore` process; editing spec.version to 3.5.0
 * takes the snapshot, restores it into a scratch `kvstore` process at 3.5.0, checks that it
 * serves the snapshot's revision and key count, removes it, then upgrades the member.
 * With the snapshot file corrupted (bytes flipped just before the rehearsal reads it, through
 * the runner's rehearsal wrapper) the rehearsal fails: UpgradeBlocked RehearsalFailed, the
 * scratch member's log tail in the Warning event, and the member is never restarted (same pid,
 * still 3.4.0); spec.version back to 3.4.0 then ends the upgrade RolledBack.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KvstoreClusterStatus } from '../../operator/api/types.js';
import type { EngineLogger, RehearsalPlatform } from '../../operator/controller/ports.js';
import { reconcile } from '../../operator/controller/reconcile.js';
import { LocalRunner } from '../../operator/runtime/local/local-runner.js';
import { eventsIn, eventsWith, notePids, statusIn, writeManifest } from '../operator/local/local-operator.js';
import { createClient } from '../../ctl/client/index.js';
import { eventually, KVSTORE_MAIN } from '../support/processes.js';

const manifest = (name: string): string => `apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: ${name}
spec:
  size: 1
  version: 3.4.0 # the version
  upgrade:
    v2WaitSeconds: 0
    memberHealthTimeoutSeconds: 90
    rehearsalTimeoutSeconds: 60
`;

function quietLogger(lines: string[]): EngineLogger {
  const keep = (level: string) => (fields: Readonly<Record<string, unknown>>, msg: string): void => void lines.push(`${level} ${msg} ${JSON.stringify(fields)}`);
  return { info: keep('info'), warn: keep('warn'), error: keep('error'), debug: () => undefined };
}

function setVersion(file: string, version: string): void {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(/version: 3\.\d\.\d # the version/, `version: ${version} # the version`);
  assert.notEqual(next, text);
  writeFileSync(file, next);
}

async function waitFor(file: string, clusterDir: string, what: string, ok: (s: KvstoreClusterStatus) => boolean, log: readonly string[]): Promise<KvstoreClusterStatus> {
  let last: KvstoreClusterStatus | undefined;
  return eventually(
    what,
    () => {
      notePids(clusterDir);
      last = statusIn(file) ?? last;
      return Promise.resolve(last !== undefined && ok(last) ? last : undefined);
    },
    { timeoutMs: 120_000, describe: () => `${JSON.stringify(last?.upgrade)}\n${log.slice(-20).join('\n')}` },
  );
}

/** Writes 30 keys, deletes 3: 27 live keys, tombstones in the snapshot. */
async function fill(endpoint: string): Promise<void> {
  const c = createClient({ endpoints: [`http://${endpoint}`], dialTimeoutMs: 3000, commandTimeoutMs: 5000 });
  try {
    for (let i = 0; i < 30; i++) assert.ok((await c.kv.put(`k${i}`, `v${i}`)).ok);
    for (let i = 0; i < 3; i++) assert.ok((await c.kv.delete(`k${i}`)).ok);
  } finally {
    c.close();
  }
}

async function start(name: string, wrap?: (p: RehearsalPlatform) => RehearsalPlatform) {
  const { file, clusterDir } = writeManifest(manifest(name), name);
  const log: string[] = [];
  const r = await LocalRunner.start({
    manifestFile: file,
    kvstoreMain: KVSTORE_MAIN,
    reconcile,
    logger: quietLogger(log),
    random: Math.random,
    now: Date.now,
    superviseMs: 500,
    pollMs: 200,
    ...(wrap === undefined ? {} : { wrapRehearsal: wrap }),
  });
  assert.ok(r.ok, r.ok ? '' : r.error);
  const runner = r.value;
  const running = await waitFor(file, clusterDir, 'Running at 3.4.0', (s) => s.phase === 'Running' && s.readyMembers === '1/1' && s.clusterVersion === '3.4.0', log);
  const endpoint = running.members[0]!.clientURL.replace(/^http:\/\//, '');
  return { file, clusterDir, runner, log, endpoint };
}

const pidOf = (clusterDir: string, name: string): string => readFileSync(join(clusterDir, `${name}-0.pid`), 'utf8').trim();

void test('local mode: an upgrade rehearsal that passes — the scratch member serves the snapshot at 3.5.0, is removed, then the member is upgraded', async (t) => {
  const { file, clusterDir, runner, log, endpoint } = await start('reh');
  try {
    await fill(endpoint);
    setVersion(file, '3.5.0');
    const done = await waitFor(file, clusterDir, 'upgrade Completed', (s) => s.upgrade?.state === 'Completed', log);
    const r = done.upgrade?.rehearsal;
    t.diagnostic(`rehearsal: ${JSON.stringify(r)}`);
    assert.equal(r?.outcome, 'Passed');
    assert.equal(r?.keys, 27);
    assert.ok((r?.revision ?? 0) >= 34, `revision ${r?.revision}`);
    assert.equal(r?.revision, done.upgrade?.snapshot?.revision);
    const events = eventsIn(clusterDir).map((e) => e.reason);
    assert.ok(events.indexOf('SnapshotTaken') < events.indexOf('RehearsalStarted'));
    assert.ok(events.indexOf('RehearsalPassed') < events.indexOf('MemberUpgradeStarted'));
    assert.ok(!existsSync(join(clusterDir, 'rehearsal.pid')), 'the scratch member is gone');
    assert.ok(!existsSync(join(clusterDir, 'rehearsal.data')), 'its data dir is gone');
    assert.match(readFileSync(join(clusterDir, 'rehearsal.log'), 'utf8'), /rehearsal .* at 3\.5\.0/);
  } finally {
    notePids(clusterDir);
    await runner.stop();
  }
});

void test('local mode: a corrupted snapshot fails the rehearsal — UpgradeBlocked RehearsalFailed, no member restarted', async () => {
  let corrupted = '';
  const flip = (p: RehearsalPlatform): RehearsalPlatform => ({
    start: async (cluster, id, path, version) => {
      const buf = readFileSync(path);
      for (let i = 4096; i < 4096 + 64 && i < buf.length - 32; i++) buf[i] = buf[i]! ^ 0xff;
      writeFileSync(path, buf);
      corrupted = path;
      return p.start(cluster, id, path, version);
    },
    observe: (cluster, signal) => p.observe(cluster, signal),
    cleanup: (cluster) => p.cleanup(cluster),
  });
  const { file, clusterDir, runner, log, endpoint } = await start('bad', flip);
  try {
    await fill(endpoint);
    const pid = pidOf(clusterDir, 'bad');
    setVersion(file, '3.5.0');
    const blocked = await waitFor(file, clusterDir, 'Blocked by the rehearsal', (s) => s.upgrade?.state === 'Blocked', log);
    assert.notEqual(corrupted, '');
    assert.equal(blocked.upgrade?.rehearsal?.outcome, 'Failed');
    assert.equal(blocked.conditions.find((c) => c.type === 'UpgradeBlocked')?.reason, 'RehearsalFailed');
    assert.equal(blocked.phase, 'UpgradeBlocked');
    const events = await eventsWith(clusterDir, 'UpgradeBlocked');
    const warning = events.find((e) => e.reason === 'UpgradeBlocked');
    assert.equal(warning?.type, 'Warning');
    assert.match(warning?.message ?? '', /scratch member log/);
    assert.match(warning?.message ?? '', /sha256/);
    assert.ok(!events.some((e) => e.reason === 'MemberUpgradeStarted'));
    // The member was never restarted: same process, still 3.4.0.
    assert.equal(pidOf(clusterDir, 'bad'), pid);
    const version = (await (await fetch(`http://${endpoint}/version`)).json()) as { etcdserver: string };
    assert.equal(version.etcdserver, '3.4.0');
    assert.ok(!existsSync(join(clusterDir, 'rehearsal.pid')), 'the scratch member is gone');
    // Back to 3.4.0: nothing was touched, the upgrade ends RolledBack.
    setVersion(file, '3.4.0');
    const back = await waitFor(file, clusterDir, 'RolledBack', (s) => s.upgrade?.state === 'RolledBack', log);
    assert.equal(back.conditions.find((c) => c.type === 'UpgradeBlocked')?.status, 'False');
    assert.equal(pidOf(clusterDir, 'bad'), pid);
  } finally {
    notePids(clusterDir);
    await runner.stop();
  }
});
