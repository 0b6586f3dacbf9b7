/**
 * The bytes a client request was decoded from, carried on the decoded message itself (a
 * non-enumerable symbol property: invisible to spreads, JSON and deep equality), so that a
 * write can enter the Raft log as those bytes instead of being encoded again.
 *
 * Contract: `rawOf(m)` is either undefined or exactly the bytes `m` was decoded from by
 * the generated decoder; decoding them again yields a message equal to `m`. Whoever
 * changes a message after decoding it must not use its raw bytes.
 */

const RAW = Symbol('kvstore.rawRequest');

/** Records on `message` the bytes it was decoded from; returns `message`. */
export function keepRaw<T extends object>(message: T, bytes: Uint8Array): T {
  Object.defineProperty(message, RAW, { value: bytes, enumerable: false });
  return message;
}

/** The bytes `message` was decoded from, if the edge kept them. */
export function rawOf(message: object): Uint8Array | undefined {
  return (message as { [RAW]?: Uint8Array })[RAW];
}
