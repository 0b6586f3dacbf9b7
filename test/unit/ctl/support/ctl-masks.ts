/**
 * Masks of the kvstorectl/etcdctl differential transcripts, on top of test/support/mask.ts.
 */
/** Revisions outside JSON (fields lines, progress notifications, exec environments). */
export const REVISION_EXTRA: ReadonlyArray<readonly [RegExp, string]> = [
  [/^"(Revision|CreateRevision|ModRevision|PrevCreateRevision|PrevModRevision)" : \d+$/gm, '"$1" : <rev>'],
  [/"(ETCD_LOCK_REV|rev)=\d+/g, '"$1=<rev>'],
  [/progress notify: \d+/g, 'progress notify: <rev>'],
  [/"CompactRevision":\d+/g, '"CompactRevision":<rev>'],
  [/^(ETCD_WATCH_REVISION|ETCD_LOCK_REV)=\d+$/gm, '$1=<rev>'],
];
/** Always masked: durations, sizes and raft positions of status and health answers, hashes. */
export const ALWAYS_EXTRA: ReadonlyArray<readonly [RegExp, string]> = [
  [/^"Took" : .*$/gm, '"Took" : <duration>'],
  [/"took":("[^"]*"|\d+(\.\d+)?(e[+-]?\d+)?)/g, '"took":<duration>'],
  [/"dbSizeInUse":\d+/g, '"dbSizeInUse":<n>'],
  [/^"(DBSize|Leader|RaftIndex|RaftAppliedIndex|Hash)" : \d+$/gm, '"$1" : <n>'],
  [/^(<addr>), \d+$/gm, '$1, <hash>'],
  [/^(http:\/\/<addr>), (?:<id>|[0-9a-f]{1,16}), ([^,]+), [^,]+, (true|false), (true|false), \d+, \d+, \d+, /gm, '$1, <id>, $2, <size>, $3, $4, <term>, <index>, <index>, '],
];
/**
 * Loose tables (kvstore comparisons, and steps marked `looseTable`): widths depend on the
 * members' addresses and on durations, so rules are masked, cell padding collapsed and the
 * `took` cell of health tables masked; the cells themselves are still compared.
 */
export const LOOSE_TABLES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\+[-+]+\+$/gm, '<table rule>'],
  [/(?<=^\|[^\n]*) {2,}/gm, ' '],
  [/^\| (\S+) \| (true|false) \| [^|]+ \|/gm, '| $1 | $2 | <duration> |'],
  [/^\| (\S+) \| (\S+) \| (\S+) \| [^|]+ \| (true|false) \| (true|false) \| \d+ \| \d+ \| \d+ \|/gm, '| $1 | $2 | $3 | <size> | $4 | $5 | <term> | <index> | <index> |'],
  [/^\| (\S+) \| \d+ \|$/gm, '| $1 | <hash> |'],
];

/**
 * Known differences of the kvstore SERVER (not of kvstorectl), masked only when comparing with
 * kvstore so that the rest stays checked; each is a server gap to fix:
 * - HashKV on a never-compacted store answers compact_revision 0 where etcd answers -1.
 */
export const KVSTORE_SERVER_GAPS: ReadonlyArray<readonly [RegExp, string]> = [[/,"compact_revision":-1\b/g, '']];

