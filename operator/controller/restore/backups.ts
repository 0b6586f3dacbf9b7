/**
 * The part of another cluster's `status.backups` a restore reads (written by the scheduled-backup
 * controller): the latest successful backup and the ones retained. Only the fields a restore needs
 * are named; a record without `file` is ignored. `pickBackup` chooses the record `restoreFrom.backup`
 * names. Pure.
 */

export interface BackupRecordView {
  /** The backup file (absolute on the operator's volume, or relative to the cluster's snapshot dir). */
  readonly file: string;
  readonly time?: string;
  readonly revision?: number;
  readonly sha256?: string;
  readonly size?: number;
}

export interface BackupsView {
  readonly lastSuccess?: BackupRecordView;
  readonly retained?: readonly BackupRecordView[];
}

const basename = (file: string): string => file.slice(file.lastIndexOf('/') + 1);
const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

function recordOf(v: unknown): BackupRecordView | undefined {
  if (!isObject(v) || typeof v['file'] !== 'string' || v['file'] === '') return undefined;
  return {
    file: v['file'],
    ...(typeof v['time'] === 'string' ? { time: v['time'] } : {}),
    ...(typeof v['revision'] === 'number' ? { revision: v['revision'] } : {}),
    ...(typeof v['sha256'] === 'string' ? { sha256: v['sha256'] } : {}),
    ...(typeof v['size'] === 'number' ? { size: v['size'] } : {}),
  };
}

/** `status.backups` of a cluster object of unknown shape (undefined when it has none). */
export function backupsOf(status: unknown): BackupsView | undefined {
  if (!isObject(status) || !isObject(status['backups'])) return undefined;
  const b = status['backups'];
  const last = recordOf(b['lastSuccess']);
  const retained = Array.isArray(b['retained']) ? b['retained'].flatMap((r) => recordOf(r) ?? []) : [];
  return { ...(last === undefined ? {} : { lastSuccess: last }), retained };
}

export type Picked = { readonly ok: true; readonly record: BackupRecordView } | { readonly ok: false; readonly message: string };

/**
 * The record named `name` (its file name or whole file) among lastSuccess and retained; without a
 * name, lastSuccess, else the newest retained (by time).
 */
export function pickBackup(view: BackupsView | undefined, name: string | undefined, what: string): Picked {
  const all = [...(view?.lastSuccess === undefined ? [] : [view.lastSuccess]), ...(view?.retained ?? [])];
  if (name !== undefined) {
    const found = all.find((r) => r.file === name || basename(r.file) === name);
    return found === undefined ? { ok: false, message: `${what} records no backup named ${JSON.stringify(name)} (known: ${all.map((r) => basename(r.file)).join(', ') || 'none'})` } : { ok: true, record: found };
  }
  if (view?.lastSuccess !== undefined) return { ok: true, record: view.lastSuccess };
  const newest = [...all].sort((a, b) => (b.time ?? '').localeCompare(a.time ?? ''))[0];
  return newest === undefined ? { ok: false, message: `${what} records no successful backup` } : { ok: true, record: newest };
}
