/**
 * The one rule both the writer and the reader apply to the order of entries, so that whatever `save`
 * accepts, opening accepts too.
 *
 * `last` is the highest index the log covers (entries or snapshot marker); `undefined` until the
 * first entry or marker. A save's entries must be consecutive, and the first may not leave a gap
 * after `last` (it may be lower: that replaces the tail from there). A snapshot marker raises `last`
 * to its index when it is ahead of the entries. Pure.
 */
export interface LogPosition {
  readonly last: number | undefined;
}

/** Why `entries` cannot follow `pos`, or `undefined` when they can. */
export function appendProblem(pos: LogPosition, entries: readonly { readonly index: number }[]): string | undefined {
  const first = entries[0];
  if (first === undefined) return undefined;
  if (pos.last !== undefined && first.index > pos.last + 1) {
    return `entry ${first.index} would leave a gap after index ${pos.last}`;
  }
  for (let i = 1; i < entries.length; i++) {
    const prev = entries[i - 1]?.index ?? 0;
    const cur = entries[i]?.index ?? 0;
    if (cur !== prev + 1) return `entries are not consecutive: ${cur} follows ${prev}`;
  }
  return undefined;
}

export function afterAppend(pos: LogPosition, lastEntryIndex: number): LogPosition {
  return { ...pos, last: lastEntryIndex };
}

export function afterSnapshot(pos: LogPosition, snapshotIndex: number): LogPosition {
  return { last: pos.last === undefined || snapshotIndex > pos.last ? snapshotIndex : pos.last };
}
