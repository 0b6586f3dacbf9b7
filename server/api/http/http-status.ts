/**
 * gRPC status code → HTTP status, as the gRPC gateway maps it (grpc-gateway v1
 * `HTTPStatusFromCode`, ETCD-FACTS §4.2). The one table of this edge for statuses.
 *
 * FailedPrecondition is 412 (grpc-gateway v1, used by etcd 3.4 and 3.5, and what a real etcd
 * 3.4 answers, e.g. `/v3/auth/authenticate` with auth disabled); 400 is grpc-gateway v2's value.
 *
 * Contract: total over numbers; codes outside 0..16 map to 500 like grpc-gateway's default.
 */
import { STATUS_CODES } from 'node:http';

const HTTP_STATUS_BY_GRPC_CODE: readonly number[] = [
  200, // 0 OK
  408, // 1 Canceled
  500, // 2 Unknown
  400, // 3 InvalidArgument
  504, // 4 DeadlineExceeded
  404, // 5 NotFound
  409, // 6 AlreadyExists
  403, // 7 PermissionDenied
  429, // 8 ResourceExhausted
  412, // 9 FailedPrecondition
  409, // 10 Aborted
  400, // 11 OutOfRange
  501, // 12 Unimplemented
  500, // 13 Internal
  503, // 14 Unavailable
  500, // 15 DataLoss
  401, // 16 Unauthenticated
];

export function httpStatusFromGrpcCode(code: number): number {
  return HTTP_STATUS_BY_GRPC_CODE[code] ?? 500;
}

/** The reason phrase of an HTTP status (`Service Unavailable`), as Go's `http.StatusText`. */
export function httpStatusText(status: number): string {
  return STATUS_CODES[status] ?? '';
}

/** The gRPC codes this edge produces itself (the rest come from the injected error table). */
export const GatewayCode = {
  Unknown: 2,
  InvalidArgument: 3,
  ResourceExhausted: 8,
  Unimplemented: 12,
} as const;
export type GatewayCode = (typeof GatewayCode)[keyof typeof GatewayCode];
