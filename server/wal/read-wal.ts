/**
 * Reads an existing WAL directory: every segment in sequence order, checking the sequence has no
 * holes and the CRC chain runs unbroken from one segment into the next; replays the records; repairs
 * a torn tail of the last segment by zeroing it (FORMAT.md §Reading). Deletes leftover temp files of
 * an interrupted rotation. Corruption throws a WalError of kind 'Corrupt'.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import type { SegmentInfo, WalState } from './file-wal.js';
import { finishReplay, newReplay, replaySegment } from './log-replay.js';
import { hex } from './record-frame.js';
import { segmentNames, TEMP_SUFFIX } from './segment-name.js';
import { SegmentFile, type SegmentFileOptions } from './segment-file.js';
import { scanSegment } from './segment-scan.js';
import type { TailRepair, WalContents } from './types.js';
import { WalError } from './wal-error.js';

function corrupt(segment: string, offset: number, reason: string): WalError {
  return new WalError({ kind: 'Corrupt', segment, offset, reason });
}

export async function readWal(
  dir: string,
  options: SegmentFileOptions,
  payloads: 'memory' | 'files' = 'memory',
): Promise<{ state: WalState; contents: WalContents }> {
  const target = resolve(dir);
  const names = await readdir(target);
  for (const n of names) if (n.endsWith(TEMP_SUFFIX)) await rm(join(target, n), { force: true });
  const segs = segmentNames(names);
  const replay = newReplay(payloads);
  const infos: SegmentInfo[] = [];
  let crc: number | undefined;
  let tail: { name: string; end: number; size: number; torn?: { offset: number; nonZeroEnd: number } } | undefined;
  for (const [i, seg] of segs.entries()) {
    const prev = segs[i - 1];
    if (prev !== undefined && seg.seq !== prev.seq + 1n) {
      throw corrupt(seg.name, 0, `sequence ${seg.seq} follows ${prev.seq}: a segment is missing`);
    }
    const buf = await readFile(join(target, seg.name));
    const isLast = i === segs.length - 1;
    const scan = scanSegment(buf, isLast);
    if (scan.kind === 'corrupt') throw corrupt(seg.name, scan.offset, scan.reason);
    if (crc !== undefined && scan.startCrc !== crc) {
      throw corrupt(seg.name, 0, `crc chain broken: segment starts from ${hex(scan.startCrc)}, previous segment ends at ${hex(crc)}`);
    }
    const outcome = replaySegment(replay, scan.records, seg.name);
    if (outcome.kind === 'corrupt') throw corrupt(seg.name, outcome.offset, outcome.reason);
    infos.push({ name: seg.name, seq: seg.seq, maxIndex: outcome.maxIndex });
    crc = scan.crc;
    if (isLast) tail = { name: seg.name, end: scan.end, size: buf.length, ...(scan.torn === undefined ? {} : { torn: scan.torn }) };
  }
  if (tail === undefined || crc === undefined || replay.metadata === undefined) {
    throw corrupt('(none)', 0, 'no segment found');
  }
  const log = finishReplay(replay);
  if (log.kind === 'corrupt') throw corrupt(tail.name, 0, log.reason);
  const file = await SegmentFile.openExisting(join(target, tail.name), tail.end, tail.size, options);
  let tailRepair: TailRepair | undefined;
  try {
    if (tail.torn !== undefined) {
      await file.zero(tail.torn.offset, tail.torn.nonZeroEnd);
      tailRepair = { segment: tail.name, offset: tail.torn.offset, droppedBytes: tail.torn.nonZeroEnd - tail.torn.offset };
    }
  } catch (e) {
    await file.close();
    throw e;
  }
  const state: WalState = {
    dir: target,
    metadata: replay.metadata,
    segments: infos,
    file,
    crc,
    position: log.position,
    hardState: replay.hardState,
    snapshot: replay.snapshot,
  };
  const contents: WalContents = {
    metadata: replay.metadata,
    hardState: replay.hardState,
    snapshot: replay.snapshot,
    entries: log.entries,
    ...(tailRepair === undefined ? {} : { tailRepair }),
  };
  return { state, contents };
}
