/**
 * The part of another cluster's `status.backups` a restore reads, as the scheduled-backup
 * controller writes it (api/schema-backup.ts): `lastSuccess` (a BackupRecord: name, uri, time,
 * revision, sha256, size, member) and `retained` (RetainedBackup: name, uri, time, size). A record
 * is picked by its `name` and located by its `uri` (a file path, or `s3://bucket/key`); a record
 * without both is ignored. `pickBackup` chooses the record `restoreFrom.backup` names: a retained
 * entry takes the revision and sha256 of `lastSuccess` when it is the same backup. Pure.
 */
import type { BackupRecord, RetainedBackup } from '../../api/types.js';

/** What a restore knows of one backup: always where it is; what it holds when lastSuccess said so. */
export type BackupRecordView = Pick<BackupRecord, 'name' | 'uri'> & Partial<Pick<BackupRecord, 'time' | 'revision' | 'sha256' | 'size'>>;

export interface BackupsView {
  readonly lastSuccess?: BackupRecordView;
  readonly retained?: readonly BackupRecordView[];
}

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** A BackupRecord or RetainedBackup of unknown shape → its view; undefined without name and uri. */
function recordOf(v: unknown): BackupRecordView | undefined {
  if (!isObject(v) || !nonEmpty(v['name']) || !nonEmpty(v['uri'])) return undefined;
  const r: Partial<BackupRecord & RetainedBackup> = v;
  return {
    name: v['name'],
    uri: v['uri'],
    ...(typeof r.time === 'string' ? { time: r.time } : {}),
    ...(typeof r.revision === 'number' ? { revision: r.revision } : {}),
    ...(typeof r.sha256 === 'string' ? { sha256: r.sha256 } : {}),
    ...(typeof r.size === 'number' ? { size: r.size } : {}),
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

/** Every record once by name, lastSuccess's fields first (it alone carries revision and sha256). */
function allRecords(view: BackupsView | undefined): BackupRecordView[] {
  const last = view?.lastSuccess;
  const out = last === undefined ? [] : [last];
  for (const r of view?.retained ?? []) {
    if (r.name === last?.name) continue;
    if (!out.some((o) => o.name === r.name)) out.push(r);
  }
  return out;
}

/**
 * The record named `name` among lastSuccess and retained; without a name, lastSuccess, else the
 * newest retained (by time, then name).
 */
export function pickBackup(view: BackupsView | undefined, name: string | undefined, what: string): Picked {
  const all = allRecords(view);
  if (name !== undefined) {
    const found = all.find((r) => r.name === name);
    return found === undefined ? { ok: false, message: `${what} records no backup named ${JSON.stringify(name)} (known: ${all.map((r) => r.name).join(', ') || 'none'})` } : { ok: true, record: found };
  }
  if (view?.lastSuccess !== undefined) return { ok: true, record: view.lastSuccess };
  const newest = [...all].sort((a, b) => (b.time ?? '').localeCompare(a.time ?? '') || b.name.localeCompare(a.name))[0];
  return newest === undefined ? { ok: false, message: `${what} records no successful backup` } : { ok: true, record: newest };
}

/** The bucket and key of an `s3://bucket/key` URI; undefined for anything else (a file path). */
export function s3Location(uri: string): { readonly bucket: string; readonly key: string } | undefined {
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri);
  return m === null ? undefined : { bucket: m[1]!, key: m[2]! };
}
