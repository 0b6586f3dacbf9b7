// ProcessRehearsal with a real kvstore process: a snapshot file (a bbolt image with its SHA-256
// trailer, built here) is restored and served at the target version with the figures the file
// holds; a second instance (an operator restarted) starting again stops the first one's orphan
// through its pid file; cleanup removes the process and its data; a file whose bytes were
// flipped fails the restore (phase Failed, the restore's message in the log tail).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KvstoreCluster } from '../../../operator/api/types.js';
import type { EngineLogger, ScratchView } from '../../../operator/controller/ports.js';
import { ProcessRehearsal } from '../../../operator/runtime/rehearsal/process-rehearsal.js';
import { isAlive } from '../../../operator/runtime/local/member-process.js';
import { writeBolt } from '../../../server/snapshot/bbolt/index.js';
import { encodeKeyValue } from '../../../server/mvcc/kv-codec.js';
import { encodeRevisionKey } from '../../../server/mvcc/revision.js';
import { eventually, KVSTORE_MAIN, makeTempDir } from '../../support/processes.js';

const dir = makeTempDir('process-rehearsal');
const quiet: EngineLogger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const cluster = { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo', namespace: 'default' }, spec: { options: {} } } as unknown as KvstoreCluster;
const make = (): ProcessRehearsal => new ProcessRehearsal({ dirOf: () => join(dir, 'scratch'), kvstoreMain: KVSTORE_MAIN, logger: quiet, random: Math.random, stopGraceMs: 2000 });
const started: ProcessRehearsal[] = [];
after(async () => {
  for (const r of started) await r.cleanup(cluster);
});

/** A snapshot file of 5 keys at revisions 2…6, with its SHA-256 trailer. */
async function snapshot(name: string): Promise<string> {
  const path = join(dir, name);
  async function* entries(): AsyncGenerator<readonly [Buffer, Buffer]> {
    for (let i = 0; i < 5; i++) {
      const key = Buffer.from(`k${i}`);
      yield [encodeRevisionKey(BigInt(i + 2), 0, false), encodeKeyValue({ key, createRevision: BigInt(i + 2), modRevision: BigInt(i + 2), version: 1n, value: Buffer.from('v'), lease: 0n })];
    }
  }
  await writeBolt(path, [{ name: 'key', entries: entries() }], { sync: false });
  appendFileSync(path, createHash('sha256').update(readFileSync(path)).digest());
  return path;
}

async function until(r: ProcessRehearsal, ok: (v: ScratchView) => boolean): Promise<ScratchView> {
  return eventually('scratch member', async () => {
    const v = await r.observe(cluster);
    return v.ok && v.value !== undefined && ok(v.value) ? v.value : undefined;
  }, { timeoutMs: 30_000 });
}

void test('a scratch member restored from a snapshot serves it at the target version; a restarted operator replaces the orphan; cleanup removes it', async () => {
  const file = await snapshot('good.db');
  const first = make();
  started.push(first);
  assert.ok((await first.start(cluster, 'r1', file, '3.5.0')).ok);
  const v = await until(first, (x) => x.phase === 'Running');
  assert.deepEqual(v.expected, { revision: 6, keys: 5 });
  const version = await eventually('/version', async () => (await fetch(`${v.clientURL}/version`)).json() as Promise<{ etcdserver: string }>, { timeoutMs: 30_000 });
  assert.equal(version.etcdserver, '3.5.0');
  const pid = Number(readFileSync(join(dir, 'scratch', 'rehearsal.pid'), 'utf8'));
  // An operator restarted: a new instance knows nothing, and starting again stops the orphan.
  const second = make();
  started.push(second);
  const unknown = await second.observe(cluster);
  assert.ok(unknown.ok && unknown.value === undefined, 'a new instance knows no scratch member');
  assert.ok((await second.start(cluster, 'r2', file, '3.5.0')).ok);
  assert.equal(isAlive(pid, join(dir, 'scratch', 'rehearsal.data')), false, 'the orphan was stopped');
  const again = await until(second, (x) => x.phase === 'Running');
  assert.equal(again.id, 'r2');
  assert.ok((await second.cleanup(cluster)).ok);
  assert.equal(existsSync(join(dir, 'scratch', 'rehearsal.data')), false);
  assert.equal(existsSync(join(dir, 'scratch', 'rehearsal.pid')), false);
  const none = await second.observe(cluster);
  assert.ok(none.ok && none.value === undefined);
});

void test('a snapshot with flipped bytes fails the restore: phase Failed, the reason in the log tail', async () => {
  const file = await snapshot('bad.db');
  const buf = readFileSync(file);
  buf[100] = buf[100]! ^ 0xff;
  writeFileSync(file, buf);
  const r = make();
  started.push(r);
  assert.ok((await r.start(cluster, 'r3', file, '3.5.0')).ok);
  const v = await until(r, (x) => x.phase === 'Failed');
  assert.match(v.error ?? '', /sha256/);
  assert.match(v.logTail, /sha256/);
});
