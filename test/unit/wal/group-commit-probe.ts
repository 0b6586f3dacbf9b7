/**
 * Probe (not a test): throughput of the real WAL under N concurrent writers, per sync mode.
 *
 *   node dist-wal/test/unit/wal/group-commit-probe.js [seconds=2] [clients=1,10,100,500]
 *
 * Each client saves one 100-byte entry plus a hard state, awaits it, and repeats. Prints saves/s,
 * durable writes (fsyncs) per second and saves per fsync for dsync and datasync, alternating.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openWal, type SyncMode } from '../../../server/wal/index.js';

interface Row {
  readonly saves: number;
  readonly fsyncs: number;
  readonly seconds: number;
}

async function run(root: string, mode: SyncMode, clients: number, seconds: number, preallocateBytes: number): Promise<Row> {
  const dir = join(root, `${mode}-${clients}-${preallocateBytes}-${Date.now()}`);
  let fsyncs = 0;
  const { wal } = await openWal(dir, { metadata: Buffer.from('probe'), syncMode: mode, preallocateBytes, onFsync: () => void fsyncs++ });
  fsyncs = 0;
  let next = 1;
  let saves = 0;
  const data = Buffer.alloc(100, 1);
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  const client = async (): Promise<void> => {
    while (process.hrtime.bigint() < deadline) {
      const index = next++;
      await wal.save([{ term: 1, index, type: 0, data }], { term: 1, vote: 1n, commit: index });
      saves++;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  await wal.close();
  await rm(dir, { recursive: true, force: true });
  return { saves, fsyncs, seconds: elapsed };
}

async function main(argv: string[]): Promise<void> {
  const seconds = Number(argv[0] ?? 2);
  const clientCounts = (argv[1] ?? '1,10,100,500').split(',').map(Number);
  const root = await mkdtemp(join(tmpdir(), 'wal-group-commit-probe-'));
  try {
    for (const clients of clientCounts) {
      for (const [mode, prealloc] of [
        ['dsync', 1 << 20],
        ['datasync', 1 << 20],
        ['dsync', 0],
        ['datasync', 0],
      ] as const) {
        const r = await run(root, mode, clients, seconds, prealloc);
        const perSec = (r.saves / r.seconds).toFixed(0);
        const fsyncPerSec = (r.fsyncs / r.seconds).toFixed(0);
        const perFsync = (r.saves / Math.max(1, r.fsyncs)).toFixed(1);
        const us = ((r.seconds / Math.max(1, r.fsyncs)) * 1e6).toFixed(0);
        console.log(
          `clients ${String(clients).padStart(4)}  ${mode.padEnd(8)} prealloc ${prealloc > 0 ? '1MiB' : 'none'}  ${perSec.padStart(7)} saves/s  ${fsyncPerSec.padStart(6)} fsyncs/s  ${perFsync.padStart(6)} saves/fsync  ${us.padStart(5)} µs/fsync`,
        );
      }
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main(process.argv.slice(2));
