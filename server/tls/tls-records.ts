/**
 * Pure: the record boundaries of one direction of a TLS connection, read from its bytes as they
 * pass (RFC 5246 §6.2.1: content type (1), version (2), length (2), then that many bytes), to find
 * where the first record of a given content type starts. Used to hold a server's output from its
 * ChangeCipherSpec on (refusing-handshake.ts).
 *
 * Invariant: the bytes seen so far are whole records plus, at most, one partial record (a
 * partial header or the rest of a body), remembered across chunks.
 */

/** TLS record content types (RFC 5246 §6.2.1). */
export const RecordType = { ChangeCipherSpec: 20, Alert: 21, Handshake: 22, ApplicationData: 23 } as const;
export type RecordType = (typeof RecordType)[keyof typeof RecordType];

const HEADER_BYTES = 5;

export class TlsRecordScanner {
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private headerHave = 0;
  private bodyLeft = 0;

  /**
   * The offset in `chunk` at which a record of content type `type` starts, or -1 when none
   * starts in it. The bytes before that offset (the whole chunk when -1) count as seen; the
   * record found and what follows it are not (scan them again to go on past it).
   */
  findRecord(chunk: Uint8Array, type: RecordType): number {
    let i = 0;
    while (i < chunk.length) {
      if (this.bodyLeft > 0) {
        const n = Math.min(this.bodyLeft, chunk.length - i);
        this.bodyLeft -= n;
        i += n;
        continue;
      }
      const byte = chunk[i] ?? 0;
      if (this.headerHave === 0 && byte === type) return i;
      this.header[this.headerHave++] = byte;
      i += 1;
      if (this.headerHave === HEADER_BYTES) {
        this.bodyLeft = this.header.readUInt16BE(3);
        this.headerHave = 0;
      }
    }
    return -1;
  }
}

/** A fatal `bad_certificate` alert (RFC 5246 §7.2.2, code 42) as a plaintext TLS 1.2 record. */
export function badCertificateAlert(): Buffer {
  return Buffer.from([RecordType.Alert, 0x03, 0x03, 0x00, 0x02, 0x02, 42]);
}
