/**
 * Segment file names: `%016x-%016x.wal` = (sequence, index of the first entry the segment was
 * opened for), lower-case hex, as etcd names them. Sequences start at 0 and have no holes; the
 * index is informational (the reader never relies on it).
 */
const SEGMENT_NAME = /^([0-9a-f]{16})-([0-9a-f]{16})\.wal$/;

export interface SegmentName {
  readonly name: string;
  readonly seq: bigint;
  readonly index: bigint;
}

export function segmentName(seq: bigint, index: bigint): string {
  return `${seq.toString(16).padStart(16, '0')}-${index.toString(16).padStart(16, '0')}.wal`;
}

/** Parses a segment file name; `undefined` for any other file name. */
export function parseSegmentName(name: string): SegmentName | undefined {
  const m = SEGMENT_NAME.exec(name);
  if (m === null || m[1] === undefined || m[2] === undefined) return undefined;
  return { name, seq: BigInt(`0x${m[1]}`), index: BigInt(`0x${m[2]}`) };
}

/** The segment names among `names`, ordered by sequence. */
export function segmentNames(names: readonly string[]): SegmentName[] {
  const out: SegmentName[] = [];
  for (const n of names) {
    const parsed = parseSegmentName(n);
    if (parsed !== undefined) out.push(parsed);
  }
  return out.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
}

/** Suffix of files being prepared (a new segment before its rename); leftovers are deleted on open. */
export const TEMP_SUFFIX = '.tmp';
