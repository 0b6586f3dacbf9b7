/**
 * Probe (not a test): compares the durable-append modes the WAL could use, on this machine's disk.
 *
 *   node dist-wal/test/unit/wal/fsync-probe.js [appends=2000] [rounds=3]
 *
 * Modes, each appending `appends` records of 200 bytes one after another and making every one durable:
 * - datasync:        positional write + FileHandle.datasync() on a growing file;
 * - dsync:           file opened with O_DSYNC, positional write only;
 * - prealloc+datasync / prealloc+dsync: the same into a file zero-filled beforehand (no size change per write).
 * Rounds alternate the modes so machine noise spreads evenly. Prints the median microseconds per append.
 */
import { constants } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Mode = 'datasync' | 'dsync' | 'prealloc+datasync' | 'prealloc+dsync';

async function runMode(dir: string, mode: Mode, appends: number): Promise<number> {
  const path = join(dir, `${mode.replace('+', '-')}.bin`);
  const record = Buffer.alloc(200, 7);
  const prealloc = mode.startsWith('prealloc');
  if (prealloc) {
    const fh = await open(path, 'w');
    await fh.write(Buffer.alloc(appends * record.length), 0, appends * record.length, 0);
    await fh.sync();
    await fh.close();
  }
  const dsync = mode.endsWith('dsync') && !mode.endsWith('datasync');
  const flags = (prealloc ? constants.O_RDWR : constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC) | (dsync ? constants.O_DSYNC : 0);
  const fh = await open(path, flags, 0o644);
  const start = process.hrtime.bigint();
  for (let i = 0; i < appends; i++) {
    await fh.write(record, 0, record.length, i * record.length);
    if (!dsync) await fh.datasync();
  }
  const elapsed = Number(process.hrtime.bigint() - start) / 1000;
  await fh.close();
  await rm(path);
  return elapsed / appends;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

async function main(argv: string[]): Promise<void> {
  const appends = Number(argv[0] ?? 2000);
  const rounds = Number(argv[1] ?? 3);
  const modes: Mode[] = ['datasync', 'dsync', 'prealloc+datasync', 'prealloc+dsync'];
  const results = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  const dir = await mkdtemp(join(tmpdir(), 'wal-fsync-probe-'));
  try {
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? modes : [...modes].reverse();
      for (const m of order) results.get(m)?.push(await runMode(dir, m, appends));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  for (const m of modes) {
    const xs = results.get(m) ?? [];
    console.log(`${m.padEnd(18)} median ${median(xs).toFixed(1)} µs/append  runs ${xs.map((x) => x.toFixed(1)).join(' ')}`);
  }
}

await main(process.argv.slice(2));
