/**
 * A connection error (RFC 9113 §5.4.1) found while reading the client's frames: thrown by the
 * frame handlers of `H2Connection` and its pure helpers, caught once by the connection's read
 * loop, which sends GOAWAY with `code` and the last stream id, then closes.
 *
 * Contract: only the read loop catches it; anything else thrown there is a bug and becomes a
 * connection error INTERNAL_ERROR.
 */
export class H2ConnectionError extends Error {
  constructor(
    readonly code: number,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'H2ConnectionError';
  }
}
