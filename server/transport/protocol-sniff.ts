/**
 * Tells an HTTP/2 prior-knowledge connection (gRPC over h2c) from an HTTP/1.x one by its
 * first bytes.
 *
 * Contract: pure; `sniffProtocol(bytes)` looks only at the bytes received so far and answers
 * - 'h2'        when they start with the full 24-byte HTTP/2 client connection preface;
 * - 'http1'     as soon as they differ from the preface (usually at the first byte);
 * - 'undecided' while they are a strict prefix of the preface (wait for more bytes).
 */
export const Protocol = {
  H2: 'h2',
  Http1: 'http1',
  Undecided: 'undecided',
} as const;
export type Protocol = (typeof Protocol)[keyof typeof Protocol];

/** RFC 9113 §3.4: the client connection preface. */
export const HTTP2_PREFACE: Buffer = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export function sniffProtocol(bytes: Uint8Array): Protocol {
  const n = Math.min(bytes.length, HTTP2_PREFACE.length);
  for (let i = 0; i < n; i++) {
    if (bytes[i] !== HTTP2_PREFACE[i]) return Protocol.Http1;
  }
  return n === HTTP2_PREFACE.length ? Protocol.H2 : Protocol.Undecided;
}
