/**
 * gRPC status codes as numbers and as the names Prometheus labels use (`grpc_code`).
 *
 * Invariant: CODE_NAMES[GrpcCode.X] === 'X' for every code; the names are grpc-go's
 * `codes.Code.String()` spelling, which go-grpc-prometheus writes into `grpc_code`.
 */
export const GrpcCode = {
  OK: 0,
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  DataLoss: 15,
  Unauthenticated: 16,
} as const;
export type GrpcCode = (typeof GrpcCode)[keyof typeof GrpcCode];

/** Code names indexed by code number (0..16). */
export const CODE_NAMES: readonly string[] = Object.entries(GrpcCode)
  .sort((a, b) => a[1] - b[1])
  .map(([name]) => name);

/** The name of a code; unknown numbers are reported as 'Unknown'. */
export function codeName(code: number): string {
  return CODE_NAMES[code] ?? 'Unknown';
}

/** A status as the edge sends it: code plus the exact message text. */
export interface GrpcStatus {
  readonly code: number;
  readonly message: string;
}
