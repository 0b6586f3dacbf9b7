/**
 * gRPC status codes with the names gRPC-Go prints (`rpc error: code = <Name> desc = …`).
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

const NAMES: ReadonlyMap<number, string> = new Map(Object.entries(GrpcCode).map(([name, code]) => [code, name]));

/** `Unavailable` for 14; `Code(<n>)` for numbers outside the table (gRPC-Go's spelling). */
export function grpcCodeName(code: number): string {
  return NAMES.get(code) ?? `Code(${code})`;
}

/** A number received from the transport as a GrpcCode (unknown numbers become Unknown). */
export function toGrpcCode(code: number): GrpcCode {
  return NAMES.has(code) ? (code as GrpcCode) : GrpcCode.Unknown;
}
