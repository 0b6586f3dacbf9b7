/**
 * Options of `createClient` and their defaults (etcd's Go client defaults: send limit 2 MiB,
 * receive limit 2147483647 bytes).
 */
import type { ClientError } from './errors.js';

/** TLS material, already read by the caller (the library reads no files). */
export interface TlsOptions {
  /** PEM CA bundle; the system roots when absent. */
  readonly ca?: Buffer;
  /** PEM client certificate and key, for mutual TLS. */
  readonly cert?: Buffer;
  readonly key?: Buffer;
  /** Accept any server certificate (testing only). */
  readonly insecureSkipVerify?: boolean;
  /** The name the server certificate must carry (and the SNI sent) when it is not the endpoint's host (an endpoint reached through another address). */
  readonly serverName?: string;
}

/** One failed unary attempt, as reported to the logger. */
export interface AttemptFailure {
  /** Full gRPC method path, e.g. `/etcdserverpb.KV/Put`. */
  readonly method: string;
  readonly endpoint: string;
  /** True when the call was bound to `endpoint` (not balanced over the list). */
  readonly pinned: boolean;
  /** 0 for the first attempt of a call. */
  readonly attempt: number;
  readonly error: ClientError;
}

/** Where the client reports what it does; every method is optional. */
export interface ClientLogger {
  attemptFailed?(failure: AttemptFailure): void;
  info?(msg: string, fields: Readonly<Record<string, unknown>>): void;
}

export interface ClientOptions {
  /** `host:port`, `http://host:port` or `https://host:port`; calls are balanced over the list. */
  readonly endpoints: readonly string[];
  /** How long `connect()` waits for a first connection. */
  readonly dialTimeoutMs: number;
  /** Default deadline of unary calls (none when absent). */
  readonly commandTimeoutMs?: number;
  /** Largest request the client sends (default 2 MiB); larger ones fail before sending. */
  readonly maxCallSendMsgSize?: number;
  /** Largest response the client accepts (default 2147483647). */
  readonly maxCallRecvMsgSize?: number;
  /** With `password`: authenticate first and send the token with every call. */
  readonly username?: string;
  readonly password?: string;
  /** Use TLS for endpoints without an explicit `http://` scheme. */
  readonly tls?: TlsOptions;
  /** gRPC keepalive ping interval and timeout while calls are active (off when absent). */
  readonly keepAliveTimeMs?: number;
  readonly keepAliveTimeoutMs?: number;
  readonly logger?: ClientLogger;
}

export const DEFAULT_MAX_CALL_SEND_MSG_SIZE = 2 * 1024 * 1024;
export const DEFAULT_MAX_CALL_RECV_MSG_SIZE = 2147483647;

/** Options with every default filled in. */
export interface ResolvedOptions extends ClientOptions {
  readonly maxCallSendMsgSize: number;
  readonly maxCallRecvMsgSize: number;
  readonly logger: ClientLogger;
}

export function resolveOptions(o: ClientOptions): ResolvedOptions {
  return {
    ...o,
    maxCallSendMsgSize: o.maxCallSendMsgSize ?? DEFAULT_MAX_CALL_SEND_MSG_SIZE,
    maxCallRecvMsgSize: o.maxCallRecvMsgSize ?? DEFAULT_MAX_CALL_RECV_MSG_SIZE,
    logger: o.logger ?? {},
  };
}
