/**
 * Record types of the WAL framing (FORMAT.md). 1–5 follow etcd's numbering; 6 is ours and
 * opens every appended write with that write's total length, which is what lets the reader tell
 * a crash's unfinished last write (repairable) from damage to earlier, acknowledged data (fatal).
 */
export const RecordType = {
  Metadata: 1,
  Entry: 2,
  State: 3,
  Crc: 4,
  Snapshot: 5,
  Write: 6,
} as const;
export type RecordType = (typeof RecordType)[keyof typeof RecordType];

export function isRecordType(n: number): n is RecordType {
  return n >= RecordType.Metadata && n <= RecordType.Write;
}
