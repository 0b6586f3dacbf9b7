/**
 * Tells an HTTP/2 prior-knowledge connection (gRPC over h2c) from an HTTP/1.x one by its
 * first bytes, and refuses bytes that are neither.
 *
 * Contract: pure; `sniffProtocol(bytes)` looks only at the bytes received so far and answers
 * - 'h2'        when they start with the full 24-byte HTTP/2 client connection preface;
 * - 'undecided' while they are a strict prefix of the preface, or while they are only
 *               token characters (an HTTP/1.x method still coming; at most 24 of them);
 * - 'http1'     once they start like an HTTP/1.x request line: a method token then a space
 *               (RFC 9112 §3); the HTTP/1.1 server judges the rest;
 * - 'neither'   otherwise: a broken preface (they start with `PRI ` but are not the preface,
 *               RFC 9113 §3.4), or bytes no request line can start with (a control byte, a TLS
 *               ClientHello on a plaintext port, a method too long). The caller closes the
 *               connection without an answer.
 */
export const Protocol = {
  H2: 'h2',
  Http1: 'http1',
  Undecided: 'undecided',
  Neither: 'neither',
} as const;
export type Protocol = (typeof Protocol)[keyof typeof Protocol];

/** RFC 9113 §3.4: the client connection preface. */
export const HTTP2_PREFACE: Buffer = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** `PRI `: bytes that start so are a preface or broken. */
const PREFACE_METHOD_LENGTH = 4;
/** The longest method token waited for (registered methods have at most 17 characters). */
const MAX_METHOD_LENGTH = 24;

/** RFC 9110 §5.6.2 tchar, by char code. */
const TCHAR: readonly boolean[] = (() => {
  const ok = new Array<boolean>(128).fill(false);
  for (const c of "!#$%&'*+-.^_`|~0123456789") ok[c.charCodeAt(0)] = true;
  for (let c = 0x41; c <= 0x5a; c++) ok[c] = ok[c + 0x20] = true;
  return ok;
})();

export function sniffProtocol(bytes: Uint8Array): Protocol {
  const n = Math.min(bytes.length, HTTP2_PREFACE.length);
  let same = 0;
  while (same < n && bytes[same] === HTTP2_PREFACE[same]) same++;
  if (same === n) return n === HTTP2_PREFACE.length ? Protocol.H2 : Protocol.Undecided;
  if (same >= PREFACE_METHOD_LENGTH) return Protocol.Neither;
  let at = 0;
  while (at < bytes.length && at <= MAX_METHOD_LENGTH && bytes[at]! < 128 && TCHAR[bytes[at]!]) at++;
  if (at > MAX_METHOD_LENGTH) return Protocol.Neither;
  if (at === bytes.length) return Protocol.Undecided;
  return at > 0 && bytes[at] === 0x20 ? Protocol.Http1 : Protocol.Neither;
}
