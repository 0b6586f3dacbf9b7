/**
 * Snapshot save at the unit level: fills a LevelDB backend with N `key` records as the MVCC
 * store writes them (17-byte revision keys, marshalled KeyValue of a 16-byte key and a
 * 256-byte value) plus a few meta records, then writes the bbolt snapshot file of it
 * (`writeSnapshotFile`, what `Maintenance.Snapshot` stages) `--runs` times, printing the CPU
 * time (process.cpuUsage), wall time and RSS of each run, and the SHA-256 of the file (equal
 * across builds when the bytes are).
 *
 *   node dist/bench/snapshot/save.js --keys 200000 [--dir DIR (kept, reused)] [--runs 3]
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeKeyValue } from '../../server/mvcc/kv-codec.js';
import { consistentIndexOp } from '../../server/mvcc/meta.js';
import { revisionKeyOf } from '../../server/mvcc/revision.js';
import { Bucket, type BackendOp } from '../../server/storage/backend.js';
import { openLevelBackend } from '../../server/storage/level-backend.js';
import { writeSnapshotFile } from '../../server/snapshot/stream.js';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

const keys = Number(flag('keys', '200000'));
const runs = Number(flag('runs', '3'));
const given = flag('dir', '');
const dir = given !== '' ? given : await mkdtemp(join(tmpdir(), 'snap-save-'));
const backend = await openLevelBackend(join(dir, 'db'));
const filled = await backend.get(Bucket.Meta, Buffer.from('consistent_index'));
if (filled === undefined) {
  const value = Buffer.alloc(256, 0x61);
  let ops: BackendOp[] = [];
  for (let i = 0; i < keys; i++) {
    const key = Buffer.from(`k${String(i).padStart(15, '0')}`);
    const kv = encodeKeyValue({ key, createRevision: BigInt(i + 2), modRevision: BigInt(i + 2), version: 1n, value, lease: 0n });
    ops.push({ type: 'put', bucket: Bucket.Key, key: revisionKeyOf(i + 2, 0, false), value: kv });
    if (ops.length === 4096) {
      await backend.write(ops);
      ops = [];
    }
  }
  ops.push(consistentIndexOp(BigInt(keys)));
  for (const name of ['alarm', 'auth', 'authRoles', 'authUsers', 'cluster', 'lease', 'members', 'members_removed'] as const) {
    ops.push({ type: 'put', bucket: name, key: Buffer.from(`${name}-x`), value: Buffer.from('y') });
  }
  await backend.write(ops, { sync: true });
}
for (let r = 0; r < runs; r++) {
  const path = join(dir, 'out.db');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const size = await writeSnapshotFile(backend, () => Promise.resolve(), path);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const sha = r === 0 ? createHash('sha256').update(await readFile(path)).digest('hex').slice(0, 16) : '';
  console.log(
    `run ${r}: ${size} bytes (${(await stat(path)).size}) cpu user ${(cpu.user / 1e6).toFixed(2)} s sys ${(cpu.system / 1e6).toFixed(2)} s wall ${(wall / 1000).toFixed(2)} s rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB ${sha}`,
  );
  await rm(path, { force: true });
}
await backend.close();
if (given === '') await rm(dir, { recursive: true, force: true });
