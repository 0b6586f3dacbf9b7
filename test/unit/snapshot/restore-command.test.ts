/**
 * kvstorectl snapshot status / restore in process, on a bbolt file written by the bbolt writer:
 * the printed status, restore's log lines and its progress bars on a terminal, and the
 * argument checks (exit 128).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CtlIO } from '../../../ctl/cli/io.js';
import { runCtl } from '../../../ctl/cli/program.js';
import { writeBolt } from '../../../server/snapshot/bbolt/index.js';

const root = mkdtempSync(join(tmpdir(), 'restore-cmd-'));
after(() => rmSync(root, { recursive: true, force: true }));

function fakeIO(tty: boolean): { io: CtlIO; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  let t = 0;
  const io: CtlIO = {
    stdout: { write: (c) => void (out += String(c)) },
    stderr: { write: (c) => void (err += String(c)) },
    stderrIsTTY: tty,
    stdin: (async function* () {})(),
    env: {},
    interrupt: new AbortController().signal,
    claimInterrupt: () => undefined,
    now: () => (t += 1000),
    monotonicNs: () => 0n,
    randomUUID: () => '00000000-0000-0000-0000-000000000000',
  };
  return { io, out: () => out, err: () => err };
}

function rev(main: number): Buffer {
  const b = Buffer.alloc(17);
  b.writeBigUInt64BE(BigInt(main), 0);
  b[8] = 0x5f;
  return b;
}

async function snapshotFile(): Promise<string> {
  const path = join(root, 'snap.db');
  async function* keys() {
    for (let i = 2; i < 500; i++) yield [rev(i), Buffer.concat([Buffer.from([0x0a, 4]), Buffer.from(`k${String(i).padStart(3, '0')}`)])] as const;
  }
  async function* meta() {
    yield [Buffer.from('consistent_index'), Buffer.from('0000000000000010', 'hex')] as const;
  }
  await writeBolt(path, [
    { name: 'key', entries: keys() },
    { name: 'meta', entries: meta() },
  ]);
  appendFileSync(path, createHash('sha256').update(readFileSync(path)).digest());
  return path;
}

void describe('kvstorectl snapshot status and restore (in process)', () => {
  void it('status of a bbolt file; restore with progress bars on a terminal', async () => {
    const file = await snapshotFile();
    const s = fakeIO(false);
    assert.equal(await runCtl(['snapshot', 'status', file, '-w', 'json'], s.io), 0, s.err());
    assert.match(s.out(), /^\{"hash":\d+,"revision":499,"totalKey":499,"totalSize":\d+\}\n$/);

    const r = fakeIO(true);
    const dataDir = join(root, 'm1.kvstore');
    assert.equal(await runCtl(['snapshot', 'restore', file, '--name', 'm1', '--initial-cluster', 'm1=http://127.0.0.1:2380', '--initial-advertise-peer-urls', 'http://127.0.0.1:2380', '--data-dir', dataDir], r.io), 0, r.err());
    const lines = r.err().split('\n');
    assert.match(lines[0], /^\{"level":"info","ts":[\d.]+,"caller":"snapshot\/v3_snapshot.go:296","msg":"restoring snapshot","path":".*snap.db","wal-dir":".*m1.kvstore\/member\/wal","data-dir":".*m1.kvstore","snap-dir":".*m1.kvstore\/member\/snap"\}$/);
    assert.ok(lines.includes('checking sha256') && lines.includes('copying buckets'), r.err());
    assert.match(r.err(), /\] 100% /);
    assert.match(lines.at(-2) ?? '', /"msg":"restored snapshot"/);
    assert.ok(existsSync(join(dataDir, 'member', 'snap', 'db')) && existsSync(join(dataDir, 'member', 'wal')));

    const q = fakeIO(false);
    assert.equal(await runCtl(['snapshot', 'restore', file, '--data-dir', join(root, 'm2.kvstore')], q.io), 0, q.err());
    assert.doesNotMatch(q.err(), /%|checking sha256/, 'no progress bar without a terminal');
  });

  void it('argument checks exit 128 with etcdctl texts', async () => {
    for (const [argv, msg] of [
      [['snapshot', 'status'], 'snapshot status requires exactly one argument'],
      [['snapshot', 'status', 'a', 'b'], 'snapshot status requires exactly one argument'],
      [['snapshot', 'restore'], 'snapshot restore requires exactly one argument'],
    ] as const) {
      const f = fakeIO(false);
      assert.equal(await runCtl([...argv], f.io), 128);
      assert.equal(f.err(), `Error: ${msg}\n`);
    }
  });
});
