/**
 * The header block of an answer that is only a status, sent by the connection itself for a
 * request it refuses before the layer above sees it: 431 (its header list is larger than
 * SETTINGS_MAX_HEADER_LIST_SIZE, RFC 9113 §10.5.1 / RFC 6585 §5) and 501 (CONNECT: no tunnels).
 *
 * Contract: pure; the block is `:status` as a literal without indexing, its name from the HPACK
 * static table (index 8, RFC 7541 Appendix A) and its three digits as a raw string — so it
 * decodes the same with any decoder context and never touches a dynamic table.
 */
const STATUS_NAME_INDEX = 8;

/** The HPACK block of `:status: <status>` (a three-digit code). */
export function statusOnlyBlock(status: number): Buffer {
  const digits = String(status);
  if (!/^[1-5][0-9]{2}$/.test(digits)) throw new RangeError(`not an HTTP status: ${status}`);
  // 0000 + 4-bit name index: literal header field without indexing (RFC 7541 §6.2.2).
  return Buffer.concat([Buffer.from([STATUS_NAME_INDEX, digits.length]), Buffer.from(digits, 'latin1')]);
}
