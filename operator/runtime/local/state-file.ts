/**
 * The local process table (FORMAT.md "state.json"): addresses, versions, replicas. Read once
 * at start, written atomically after every change. Missing file = empty table.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';

export interface SlotRecord {
  readonly host: string;
  readonly clientPort: number;
  readonly peerPort: number;
  /** Version of the current (or last) run. */
  readonly version: string;
  /**
   * `--initial-cluster-state` for a member without data: `new` for the slots of the first
   * creation, `existing` for slots added (or reset) later, which join a running cluster.
   */
  readonly join: 'new' | 'existing';
  /** The member was seen running with its data (`<data dir>/member`); its absence then = data lost. */
  readonly hasData?: boolean;
}

export interface LocalState {
  readonly templateVersion: string;
  readonly replicas: number;
  readonly token: string;
  readonly members: Readonly<Record<string, SlotRecord>>;
  /** The snapshot the founding members (`join: new`) are restored from while their data dir is empty (spec.restoreFrom). */
  readonly restore?: { readonly file: string; readonly sha256: string };
}

export const EMPTY_STATE: LocalState = { templateVersion: '', replicas: 0, token: '', members: {} };

export async function readState(file: string): Promise<PortResult<LocalState>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return portOk(EMPTY_STATE);
    return portFail(`read ${file}: ${(err as Error).message}`);
  }
  try {
    return portOk({ ...EMPTY_STATE, ...(JSON.parse(text) as Partial<LocalState>) });
  } catch (err) {
    return portFail(`parse ${file}: ${(err as Error).message}`);
  }
}

/**
 * Atomic write: `<file>.tmp`, fsync, rename. `stillCurrent`, when given, is asked once the new
 * text is on disk, right before the rename: false leaves the file as it is (the temp file is
 * removed) and the call returns false. Asking it last keeps the window in which a concurrent
 * writer's change could be replaced to one read and one rename.
 */
export async function writeFileAtomic(file: string, text: string, stillCurrent?: () => Promise<boolean>): Promise<boolean> {
  const dir = file.slice(0, file.lastIndexOf('/'));
  await mkdir(dir, { recursive: true });
  const tmp = `${file}.tmp`;
  const f = await open(tmp, 'w', 0o644);
  try {
    await f.writeFile(text);
    await f.sync();
  } finally {
    await f.close();
  }
  if (stillCurrent !== undefined && !(await stillCurrent())) {
    await rm(tmp, { force: true });
    return false;
  }
  await rename(tmp, file);
  return true;
}

export async function writeState(file: string, state: LocalState): Promise<PortResult<void>> {
  try {
    await writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`);
    return portOk(undefined);
  } catch (err) {
    return portFail(`write ${file}: ${(err as Error).message}`);
  }
}
