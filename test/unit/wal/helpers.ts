/**
 * Shared fixtures for the WAL tests: temp directories removed after each test, entry and hard
 * state builders, and byte-level helpers to damage segment files.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

import { openWal, type Entry, type HardState, type OpenedWal, type WalOptions } from '../../../server/wal/index.js';

/** A fresh directory under os.tmpdir(), removed when the test ends. Returns `<tmp>/member/wal`. */
export async function tempWalDir(t: TestContext): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kvstore-wal-test-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  return join(root, 'member', 'wal');
}

export function entry(index: number, term = 1, data = `value-${index}`): Entry {
  return { term, index, type: 0, data: Buffer.from(data) };
}

export function entries(from: number, to: number, term = 1): Entry[] {
  const out: Entry[] = [];
  for (let i = from; i <= to; i++) out.push(entry(i, term));
  return out;
}

export function hardState(term: number, vote: number, commit: number): HardState {
  return { term, vote: BigInt(vote), commit };
}

export const META = Buffer.from('member-1/cluster-7');

export function open(dir: string, extra: Partial<WalOptions> = {}): Promise<OpenedWal> {
  return openWal(dir, { metadata: META, ...extra });
}

/** Segment file names in `dir`, in sequence order. */
export async function segmentFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.endsWith('.wal')).sort();
}

export async function lastSegment(dir: string): Promise<string> {
  const files = await segmentFiles(dir);
  const last = files[files.length - 1];
  if (last === undefined) throw new Error(`no segment in ${dir}`);
  return join(dir, last);
}

/** Applies `change` to the bytes of `path`. */
export async function editFile(path: string, change: (b: Buffer) => Buffer): Promise<void> {
  await writeFile(path, change(await readFile(path)));
}

export function indexes(list: readonly Entry[]): number[] {
  return list.map((e) => e.index);
}

export function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}
