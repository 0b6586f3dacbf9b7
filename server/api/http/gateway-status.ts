/**
 * What the gateway sends for a failed call: a gRPC status (code + exact message) rendered as
 * grpc-gateway renders it (ETCD-FACTS §4.2).
 *
 * - unary: HTTP status from the code, `Content-Type: application/json`, body
 *   `{"error":msg,"code":n,"message":msg}` (key order of grpc-gateway ≥ 1.11, etcd 3.4.x/3.5);
 * - stream: one chunk `{"error":{"grpc_code":n,"http_code":h,"message":msg,"http_status":text}}`.
 *
 * `ToStatus` is the injected DomainError → status table (api/grpc/error-table.ts in the server).
 */
import type { DomainError } from '../../errors/domain-error.js';
import { httpStatusFromGrpcCode, httpStatusText } from './http-status.js';

export interface GatewayStatus {
  readonly code: number;
  readonly message: string;
}

export type ToStatus = (e: DomainError) => GatewayStatus;

/** Key order as the reference 3.4 server sends it (observed): error, message, code. */
export function unaryErrorBody(status: GatewayStatus): string {
  return JSON.stringify({ error: status.message, message: status.message, code: status.code });
}

export function streamErrorChunk(status: GatewayStatus): string {
  const httpCode = httpStatusFromGrpcCode(status.code);
  return JSON.stringify({
    error: {
      grpc_code: status.code,
      http_code: httpCode,
      message: status.message,
      http_status: httpStatusText(httpCode),
    },
  });
}

/** A stream chunk carrying one response message (already in gateway JSON form). */
export function streamResultChunk(message: unknown): string {
  return `${JSON.stringify({ result: message })}\n`;
}
