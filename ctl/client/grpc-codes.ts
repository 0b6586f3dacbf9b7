/**
 * gRPC status codes (one table, shared with the server's edge) with the names gRPC-Go
 * prints (`rpc error: code = <Name> desc = …`).
 */
import { GrpcCode } from '../../server/api/grpc/codes.js';

export { GrpcCode };

const NAMES: ReadonlyMap<number, string> = new Map(Object.entries(GrpcCode).map(([name, code]) => [code, name]));

/** `Unavailable` for 14; `Code(<n>)` for numbers outside the table (gRPC-Go's spelling). */
export function grpcCodeName(code: number): string {
  return NAMES.get(code) ?? `Code(${code})`;
}

/** A number received from the transport as a GrpcCode (unknown numbers become Unknown). */
export function toGrpcCode(code: number): GrpcCode {
  return NAMES.has(code) ? (code as GrpcCode) : GrpcCode.Unknown;
}
