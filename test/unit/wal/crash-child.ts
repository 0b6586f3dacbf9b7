/**
 * Child process for crash.test.ts (not a test itself): opens the WAL at argv[2], then saves entries
 * forever with several saves in flight, printing `ack <index>` once each save has resolved. Every
 * 200 entries it saves a snapshot marker 100 entries back and releases old segments. The parent
 * kills it with SIGKILL at an arbitrary moment.
 */
import { openWal, type Entry } from '../../../server/wal/index.js';

export function crashEntry(index: number): Entry {
  return { term: 1, index, type: 0, data: Buffer.from(`crash-entry-${index}-`.padEnd(200, '#')) };
}

async function main(dir: string): Promise<void> {
  const { wal, contents } = await openWal(dir, { metadata: Buffer.from('crash-test'), segmentBytes: 32 * 1024 });
  const last = contents.entries[contents.entries.length - 1]?.index ?? contents.snapshot?.index ?? 0;
  let next = last + 1;
  const inFlight = new Set<Promise<void>>();
  for (;;) {
    while (inFlight.size < 8) {
      const index = next++;
      const p: Promise<void> = wal.save([crashEntry(index)], { term: 1, vote: 1n, commit: index }).then(() => {
        inFlight.delete(p);
        process.stdout.write(`ack ${index}\n`);
      });
      inFlight.add(p);
      if (index % 200 === 0) {
        await wal.saveSnapshot({ index: index - 100, term: 1, confState: { voters: [1n], learners: [] } });
        await wal.releaseTo(index - 100);
      }
    }
    await Promise.race(inFlight);
  }
}

const dir = process.argv[2];
if (dir !== undefined && process.argv[1]?.endsWith('crash-child.js') === true) await main(dir);
