/**
 * Table-free HPACK encoding (RFC 7541 §6.1, §6.2.2, §6.2.3): a field whose name and value are
 * in the static table is sent as that index; any other as a literal without indexing (or
 * never indexed, when `neverIndex`), its name by static index when the static table has it.
 * No dynamic table is read or written, so the block decodes the same in any decoding context
 * and under any SETTINGS_HEADER_TABLE_SIZE. A string is Huffman-coded when that is shorter.
 */
import type { HeaderField } from './header-field.js';
import { huffmanEncode, huffmanEncodedLength } from './huffman.js';
import { writeInteger } from './integer.js';
import { staticFieldIndex, staticNameIndex } from './static-table.js';

const EMPTY = Buffer.alloc(0);
/** Octets a field takes at most besides its strings: the first octet with a name index
 *  (≤ 61: 2 octets with a 4-bit prefix) and two string lengths (≤ 5 octets each). */
const FIELD_OVERHEAD = 12;

/** `fields` as one header block (names and values are latin1 byte strings). */
export function encodeFields(fields: readonly HeaderField[]): Buffer {
  if (fields.length === 0) return EMPTY;
  let bound = 0;
  for (const f of fields) bound += FIELD_OVERHEAD + f.name.length + f.value.length;
  const out = Buffer.allocUnsafe(bound);
  let pos = 0;
  for (const f of fields) {
    const nameIndex = staticNameIndex(f.name);
    const index = f.neverIndex ? 0 : staticFieldIndex(nameIndex, f.value);
    if (index !== 0) {
      out[pos++] = 0x80 | index; // indexed (§6.1): every static index fits the 7-bit prefix
      continue;
    }
    pos = writeInteger(out, pos, nameIndex, 4, f.neverIndex ? 0x10 : 0x00);
    if (nameIndex === 0) pos = writeString(out, pos, f.name);
    pos = writeString(out, pos, f.value);
  }
  return out.subarray(0, pos);
}

/** A string literal (§5.2): Huffman-coded if shorter, raw otherwise. */
function writeString(out: Buffer, pos: number, s: string): number {
  const huffmanLength = huffmanEncodedLength(s);
  if (huffmanLength < s.length) {
    pos = writeInteger(out, pos, huffmanLength, 7, 0x80);
    return huffmanEncode(s, out, pos);
  }
  pos = writeInteger(out, pos, s.length, 7, 0x00);
  return pos + out.write(s, pos, 'latin1');
}
