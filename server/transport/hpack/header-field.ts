/**
 * One header field as HPACK carries it. Names and values are byte strings: one char per octet
 * (latin1), so a field decoded then encoded again keeps every byte, and `name.length` is the
 * octet count that RFC 7541 §4.1 sizes are made of.
 */
export interface HeaderField {
  readonly name: string;
  readonly value: string;
  /** Sent as "literal never indexed" (RFC 7541 §6.2.3): kept so on re-encoding. */
  readonly neverIndex: boolean;
}

/** RFC 7541 §4.1: the size of an entry (or of a field in a header list, RFC 9113 §6.5.2). */
export function fieldSize(name: string, value: string): number {
  return name.length + value.length + 32;
}
