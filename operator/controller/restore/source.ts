/**
 * The text that names a restore source, as status.restore.source records it and events quote it:
 * `path:<path>` or `backup:<namespace>/<cluster>` (`/<name>` when a backup is named; no
 * `<namespace>/` in local mode). Two specs
 * with the same text name the same source. Pure.
 */
import type { RestoreFrom } from '../../api/types.js';

export function sourceText(from: RestoreFrom, namespace: string): string {
  if (from.backup !== undefined) {
    const b = from.backup;
    const ns = b.namespace ?? namespace;
    return `backup:${ns === '' ? '' : `${ns}/`}${b.cluster}${b.name === undefined ? '' : `/${b.name}`}`;
  }
  return `path:${from.path ?? ''}`;
}
