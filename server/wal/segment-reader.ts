/**
 * Reads entry payloads back out of segment files, synchronously, for the Raft log's entries that
 * no longer keep their data in memory (`PayloadAt`, raft/memory-storage.ts's window).
 *
 * Synchronous on purpose: the Raft core asks its storage for entries inside a step and expects
 * them at once, as etcd's raft does. The reads are rare and bounded — a follower being caught
 * up (at most one message's size, `maxSizePerMsg`, per call) and the committed entries a member
 * applies again after a restart (`maxCommittedSizePerReady` per Ready) — and come from the page
 * cache when the entries were written recently.
 *
 * A segment's descriptor is opened at its first read and kept until the log releases the segment
 * (`forget`) or closes (`closeAll`); a released segment's descriptor never keeps its disk space.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

import type { PayloadAt } from './types.js';

export class SegmentReader {
  readonly #fds = new Map<string, number>();

  constructor(private readonly dir: string) {}

  read(at: PayloadAt): Buffer {
    const out = Buffer.allocUnsafeSlow(at.bytes);
    if (at.bytes === 0) return out;
    const fd = this.#fd(at.segment);
    let done = 0;
    while (done < at.bytes) {
      const n = readSync(fd, out, done, at.bytes - done, at.offset + done);
      if (n === 0) throw new Error(`wal: segment ${at.segment} ends before byte ${at.offset + at.bytes} of a payload`);
      done += n;
    }
    return out;
  }

  forget(segment: string): void {
    const fd = this.#fds.get(segment);
    if (fd === undefined) return;
    this.#fds.delete(segment);
    closeSync(fd);
  }

  closeAll(): void {
    for (const name of [...this.#fds.keys()]) this.forget(name);
  }

  #fd(segment: string): number {
    let fd = this.#fds.get(segment);
    if (fd === undefined) {
      fd = openSync(join(this.dir, segment), 'r');
      this.#fds.set(segment, fd);
    }
    return fd;
  }
}
