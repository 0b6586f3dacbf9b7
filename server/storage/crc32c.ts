/**
 * CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), the checksum `etcdctl snapshot status`
 * prints as its hash and HashKV folds records into. Incremental: `update` folds bytes into a
 * running value, `digest` reads it.
 *
 * Eight bytes per step ("slicing by 8": eight 256-entry tables, table k giving the CRC of a
 * byte followed by k zero bytes), which HashKV needs: it folds every record of the store.
 * Pure; the tables are built per instance (no module-level mutable state).
 */
const POLY = 0x82f63b78;

/** Tables 0…7 one after the other: entry n of table k at k * 256 + n. */
function makeTables(): Uint32Array {
  const t = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? POLY ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let k = 1; k < 8; k++) {
    for (let n = 0; n < 256; n++) {
      const prev = t[(k - 1) * 256 + n]!;
      t[k * 256 + n] = (prev >>> 8) ^ t[prev & 0xff]!;
    }
  }
  return t;
}

export class Crc32c {
  readonly #t = makeTables();
  #crc: number;

  /** `seed`: a checksum to continue (etcd's WAL chains each record's CRC on from the previous one); 0 starts afresh. */
  constructor(seed = 0) {
    this.#crc = (seed ^ 0xffffffff) >>> 0;
  }

  /** Folds `bytes[start…end)` (all of it by default) into the checksum, in order. */
  update(bytes: Uint8Array, start = 0, end = bytes.length): this {
    const t = this.#t;
    let c = this.#crc;
    let i = start;
    for (; i + 8 <= end; i += 8) {
      c ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
      c =
        t[1792 + (c & 0xff)]! ^
        t[1536 + ((c >>> 8) & 0xff)]! ^
        t[1280 + ((c >>> 16) & 0xff)]! ^
        t[1024 + (c >>> 24)]! ^
        t[768 + bytes[i + 4]!]! ^
        t[512 + bytes[i + 5]!]! ^
        t[256 + bytes[i + 6]!]! ^
        t[bytes[i + 7]!]!;
    }
    for (; i < end; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
    this.#crc = c;
    return this;
  }

  /** The checksum of everything given so far, as an unsigned 32-bit number. */
  digest(): number {
    return (this.#crc ^ 0xffffffff) >>> 0;
  }
}
