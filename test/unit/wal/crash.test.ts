/**
 * A real process crash: a child saves in a loop and prints each acknowledged index; it is killed
 * with SIGKILL; reopening must find every acknowledged index. Three rounds on the same WAL, each
 * child continuing where the previous one's log ends.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { crashEntry } from './crash-child.js';
import { open, tempWalDir } from './helpers.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'crash-child.js');

/** Runs the child until it has acknowledged `acks` saves, then SIGKILLs it; returns the acknowledged indexes. */
function runAndKill(dir: string, acks: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: number[] = [];
    let partial = '';
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^ack (\d+)$/.exec(line);
        if (m?.[1] !== undefined) acked.push(Number(m[1]));
      }
      if (!killed && acked.length >= acks) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited (code ${code}, signal ${signal}) before being killed: ${stderr}`));
      else resolve(acked);
    });
  });
}

void test('every save acknowledged before a kill -9 is on disk', async (t) => {
  const dir = await tempWalDir(t);
  const everAcked: number[] = [];
  for (const [round, acks] of [300, 777, 1500].entries()) {
    const acked = await runAndKill(dir, acks);
    assert.ok(acked.length >= acks, `round ${round}: ${acked.length} acks`);
    everAcked.push(...acked);

    const { wal, contents } = await open(dir);
    const snapshotIndex = contents.snapshot?.index ?? 0;
    const byIndex = new Map(contents.entries.map((e) => [e.index, e]));
    for (const index of everAcked) {
      if (index <= snapshotIndex) continue;
      assert.deepEqual(byIndex.get(index), crashEntry(index), `round ${round}: acknowledged entry ${index} is missing or wrong`);
    }
    const first = contents.entries[0]?.index ?? snapshotIndex + 1;
    assert.ok(first <= snapshotIndex + 1, `round ${round}: entries start right after the snapshot marker`);
    contents.entries.forEach((e, k) => assert.equal(e.index, first + k));
    assert.ok(contents.hardState.commit >= (contents.entries[contents.entries.length - 1]?.index ?? 0) - 8);
    await wal.close();
  }
});
