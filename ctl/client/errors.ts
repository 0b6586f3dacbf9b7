/**
 * Client errors as values.
 *
 * A `ClientError` carries the gRPC code, the status description as received (`details`) and
 * `message`, the text etcd's Go client would print for it:
 * - a description found in etcd's error table (etcd-errors.ts) → that message, kind = the etcd kind;
 * - the call's own deadline or cancellation → `context deadline exceeded` / `context canceled`;
 * - anything else → gRPC-Go's status form `rpc error: code = <Name> desc = <details>`, kind `Grpc`.
 * Client-side size limits produce ResourceExhausted errors worded like gRPC-Go
 * (`grpc: trying to send message larger than max (<size> vs. <limit>)`, `grpc: received …`).
 */
import { etcdErrorKindOf, type EtcdErrorKind } from './etcd-errors.js';
import { GrpcCode, grpcCodeName } from './grpc-codes.js';

/** Kinds raised on the client side (never sent by a server). */
export const LocalErrorKind = {
  DeadlineExceeded: 'DeadlineExceeded',
  Canceled: 'Canceled',
  SendTooLarge: 'SendTooLarge',
  ReceiveTooLarge: 'ReceiveTooLarge',
  /** No endpoint configured, or the client was closed. */
  NoEndpoint: 'NoEndpoint',
  /** A status whose text is not in etcd's table. */
  Grpc: 'Grpc',
  /** A request the client refuses before sending it (e.g. a malformed peer URL). */
  BadRequest: 'BadRequest',
} as const;
export type LocalErrorKind = (typeof LocalErrorKind)[keyof typeof LocalErrorKind];

export type ClientErrorKind = EtcdErrorKind | LocalErrorKind;

export interface ClientError {
  readonly kind: ClientErrorKind;
  readonly code: GrpcCode;
  /** What the error prints as (see the file header). */
  readonly message: string;
  /** The status description as received or produced locally. */
  readonly details: string;
  /** The endpoint the failing attempt went to, when one was picked. */
  readonly endpoint?: string;
}

/** gRPC-Go's text of a status: `rpc error: code = <Name> desc = <details>`. */
export function statusText(code: number, details: string): string {
  return `rpc error: code = ${grpcCodeName(code)} desc = ${details}`;
}

/** The status form of an error (what gRPC-Go logs for a failed attempt). */
export function errorStatusText(e: ClientError): string {
  return statusText(e.code, e.details);
}

const RECEIVED_TOO_LARGE = /^(?:grpc: )?received message larger than max \((\d+) vs\.? (\d+)\)$/i;

/** A status received from the transport (server-sent or produced by gRPC) as a ClientError. */
export function errorFromStatus(code: GrpcCode, details: string, endpoint?: string): ClientError {
  const at = endpoint === undefined ? {} : { endpoint };
  const kind = etcdErrorKindOf(details);
  if (kind !== undefined) return { kind, code, message: details, details, ...at };
  const big = code === GrpcCode.ResourceExhausted ? RECEIVED_TOO_LARGE.exec(details) : null;
  if (big !== null) return receiveTooLarge(Number(big[1]), Number(big[2]), endpoint);
  return { kind: LocalErrorKind.Grpc, code, message: statusText(code, details), details, ...at };
}

/** The call's deadline passed; `details` is the status description gRPC gave (logged, not printed). */
export function deadlineExceeded(details = 'context deadline exceeded', endpoint?: string): ClientError {
  return { kind: 'DeadlineExceeded', code: GrpcCode.DeadlineExceeded, message: 'context deadline exceeded', details, ...(endpoint === undefined ? {} : { endpoint }) };
}

/** The caller cancelled the call. */
export function canceled(details = 'context canceled'): ClientError {
  return { kind: 'Canceled', code: GrpcCode.Canceled, message: 'context canceled', details };
}

/** A request bigger than the client's send limit; nothing was sent. */
export function sendTooLarge(size: number, limit: number): ClientError {
  const details = `grpc: trying to send message larger than max (${size} vs. ${limit})`;
  return { kind: 'SendTooLarge', code: GrpcCode.ResourceExhausted, message: statusText(GrpcCode.ResourceExhausted, details), details };
}

/** A response bigger than the client's receive limit. */
export function receiveTooLarge(size: number, limit: number, endpoint?: string): ClientError {
  const details = `grpc: received message larger than max (${size} vs. ${limit})`;
  return {
    kind: 'ReceiveTooLarge',
    code: GrpcCode.ResourceExhausted,
    message: statusText(GrpcCode.ResourceExhausted, details),
    details,
    ...(endpoint === undefined ? {} : { endpoint }),
  };
}

/** No endpoint to talk to (empty list, or the client is closed). */
export function noEndpoint(details: string): ClientError {
  return { kind: 'NoEndpoint', code: GrpcCode.Unavailable, message: statusText(GrpcCode.Unavailable, details), details };
}

/** A request refused by the client itself; `message` is the whole text. */
export function badRequest(message: string): ClientError {
  return { kind: 'BadRequest', code: GrpcCode.InvalidArgument, message, details: message };
}

/** True when `e` is of `kind` (compare errors like the Go client: by kind, i.e. by message). */
export function isErrorKind(e: ClientError, kind: ClientErrorKind): boolean {
  return e.kind === kind;
}
