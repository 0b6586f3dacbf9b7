/**
 * Where the in-memory log keeps entry payloads: copied into shared chunks of CHUNK_BYTES, one
 * after the other, so an entry held until compaction costs its own bytes and nothing more.
 *
 * Why: an entry's `data` arrives as a view into a bigger buffer — an 8 KiB pool slab shared
 * with short-lived allocations (proposals), a network read (followers), a whole WAL segment
 * (replay at start) — and a view keeps all of its buffer alive. The log holds up to
 * `snapshot-count` entries, so those buffers added up to twice the payload bytes after a load
 * and to whole WAL segments after a restart. A chunk is freed by the garbage collector once
 * no entry viewing it is left (entries are compacted oldest first, so chunks go in order).
 * Payloads larger than a quarter chunk get a buffer of their own. Chunks are small (16 KiB) on
 * purpose: a view of one payload kept elsewhere (a value in the hot-record cache) keeps its whole
 * chunk alive, as it kept an 8 KiB pool slab before.
 */

const CHUNK_BYTES = 16 * 1024;
const OWN_BUFFER_BYTES = CHUNK_BYTES / 4;

export class EntryArena {
  private chunk: Buffer = Buffer.alloc(0);
  private used = 0;

  /**
   * `data`'s bytes in a buffer that keeps nothing else alive: a copy, or `data` itself when it is
   * large and already the whole of its own buffer (a proposal's entry bytes: a copy would only
   * double the work and the garbage for a large value).
   */
  copy(data: Buffer): Buffer {
    const n = data.length;
    if (n === 0) return data;
    if (n > OWN_BUFFER_BYTES) {
      if (data.byteOffset === 0 && data.buffer.byteLength === n) return data;
      const own = Buffer.allocUnsafeSlow(n);
      own.set(data);
      return own;
    }
    if (this.used + n > this.chunk.length) {
      this.chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
      this.used = 0;
    }
    const at = this.used;
    this.chunk.set(data, at);
    this.used += n;
    return this.chunk.subarray(at, at + n);
  }
}
