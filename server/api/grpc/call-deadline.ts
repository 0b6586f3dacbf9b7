/**
 * The `grpc-timeout` request header (gRPC over HTTP/2: 1 to 8 digits, then a unit among
 * H, M, S, m, u, n): the call's deadline in milliseconds from its start. A value that does not
 * parse ends the call with grpc-js's status and text (INTERNAL `Invalid grpc-timeout value "…"`).
 */
import { GrpcCode } from './codes.js';
import type { Refusal } from './message-body.js';

const UNIT_MS: Readonly<Record<string, number>> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 0.001, n: 0.000_001 };
const TIMEOUT = /^(\d{1,8})([HMSmun])$/;

/** Milliseconds until the deadline (undefined: no header), or the refusal of a malformed one. */
export function callTimeoutMs(header: string | undefined): number | undefined | Refusal {
  if (header === undefined) return undefined;
  const m = TIMEOUT.exec(header);
  if (m === null) return { code: GrpcCode.Internal, details: `Invalid grpc-timeout value "${header}"` };
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}
