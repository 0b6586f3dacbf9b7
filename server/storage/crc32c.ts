/**
 * CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), the checksum `etcdctl snapshot status`
 * prints as its hash. Incremental: `update` folds bytes into a running value, `digest` reads it.
 * Pure; the table is built per instance (no module-level mutable state).
 */
const POLY = 0x82f63b78;

function makeTable(): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? POLY ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

export class Crc32c {
  readonly #table = makeTable();
  #crc = 0xffffffff;

  /** Folds `bytes` into the checksum, in order. */
  update(bytes: Uint8Array): this {
    const t = this.#table;
    let c = this.#crc;
    for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
    this.#crc = c;
    return this;
  }

  /** The checksum of everything given so far, as an unsigned 32-bit number. */
  digest(): number {
    return (this.#crc ^ 0xffffffff) >>> 0;
  }
}
