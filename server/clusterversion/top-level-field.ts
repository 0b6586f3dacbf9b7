/**
 * Whether an encoded protobuf message has a given top-level field, read from its tags alone:
 * length-delimited fields are skipped, nothing is decoded. A restarting member asks this of
 * every log entry it replays (is it a cluster version decision?), so the cost is one pass over
 * a few tag bytes per entry instead of decoding each request.
 *
 * Contract: false for bytes that are not a well-formed message (the caller decodes only what
 * this says has the field; a malformed entry is then skipped as the decoder would refuse it).
 */

/** Reads a varint at `pos`; returns [value, next position] or undefined past the end / over 7 bytes of value. */
function varint(bytes: Uint8Array, pos: number): [number, number] | undefined {
  let value = 0;
  let scale = 1;
  for (let i = pos; i < bytes.length && i < pos + 8; i++) {
    const b = bytes[i]!;
    value += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) return [value, i + 1];
    scale *= 128;
  }
  return undefined;
}

export function hasTopLevelField(bytes: Uint8Array, fieldNumber: number): boolean {
  let pos = 0;
  while (pos < bytes.length) {
    const tag = varint(bytes, pos);
    if (tag === undefined) return false;
    const [key, afterTag] = tag;
    if (Math.floor(key / 8) === fieldNumber) return true;
    switch (key % 8) {
      case 0: {
        const v = varint(bytes, afterTag);
        if (v === undefined) return false;
        pos = v[1];
        break;
      }
      case 1:
        pos = afterTag + 8;
        break;
      case 2: {
        const len = varint(bytes, afterTag);
        if (len === undefined) return false;
        pos = len[1] + len[0];
        break;
      }
      case 5:
        pos = afterTag + 4;
        break;
      default:
        return false;
    }
  }
  return false;
}
