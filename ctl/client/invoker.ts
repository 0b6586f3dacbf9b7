/**
 * Unary calls and stream opening over the endpoint pool: deadlines, cancellation, the client
 * send limit, auth token and require-leader metadata, failover and retries.
 *
 * Contract of `unary`:
 * - the request is serialised once; above `maxCallSendMsgSize` the call fails with
 *   ResourceExhausted before anything is sent;
 * - the deadline is `timeoutMs`, else the client's `commandTimeoutMs`, else none; `signal`
 *   cancels (error `context canceled`);
 * - every failed attempt is reported to `logger.attemptFailed` (attempt 0, 1, …);
 * - on Unavailable the call moves to the next ready endpoint: always for `repeatable` calls
 *   (reads), and for `mutable` calls only when the failure came from the transport (the
 *   request did not reach etcd); calls bound to one endpoint are not moved;
 * - an `invalid auth token`, `revision of auth store is old` or `user name is empty` answer
 *   refreshes the token once and retries (as clientv3 3.4.23 does; with credentials only).
 */
import { Metadata, status as GrpcStatus, type ClientReadableStream, type ClientDuplexStream, type ServiceError } from '@grpc/grpc-js';
import { setTimeout as sleep } from 'node:timers/promises';
import { AuthService } from '../../proto/gen/etcd/rpc.js';
import { canceled, deadlineExceeded, errorFromStatus, sendTooLarge, type ClientError } from './errors.js';
import { toGrpcCode, GrpcCode } from './grpc-codes.js';
import type { ResolvedOptions } from './options.js';
import type { EndpointPool } from './pool.js';
import type { Result } from './result.js';


/** Answers after which a client with credentials authenticates again and retries (clientv3's shouldRefreshToken). */
const REFRESHES_TOKEN: ReadonlySet<string> = new Set(['InvalidAuthToken', 'AuthOldRevision', 'UserEmpty']);

/** Per-call options. */
export interface CallOptions {
  /** Deadline of this call in ms (overrides the client's command timeout; 0 or less: none). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Send to this endpoint only (no balancing, no failover); may be outside the list. */
  readonly endpoint?: string;
}

/** The parts of a generated method definition the invoker needs. */
export interface MethodDef<Req, Res> {
  readonly path: string;
  readonly requestSerialize: (req: Req) => Buffer;
  readonly responseDeserialize: (buf: Buffer) => Res;
}

/** Whether a call may be repeated on another endpoint after a server-side Unavailable. */
export type RetryPolicy = 'repeatable' | 'mutable';

const RETRY_PAUSE_MS = 25;
const MAX_ATTEMPTS = 100;

const identity = (b: Buffer): Buffer => b;

export class Invoker {
  private token: string | undefined;

  constructor(
    private readonly pool: EndpointPool,
    private readonly opts: ResolvedOptions,
  ) {}

  /** Absolute deadline (ms since epoch, Infinity for none) of a call with these options. */
  deadlineOf(call: CallOptions | undefined, fallbackMs = this.opts.commandTimeoutMs): number {
    const ms = call?.timeoutMs ?? fallbackMs;
    return ms === undefined || ms <= 0 ? Infinity : Date.now() + ms;
  }

  async unary<Req, Res>(def: MethodDef<Req, Res>, req: Req, policy: RetryPolicy, call?: CallOptions): Promise<Result<Res>> {
    const payload = def.requestSerialize(req);
    if (payload.length > this.opts.maxCallSendMsgSize) {
      const error = sendTooLarge(payload.length, this.opts.maxCallSendMsgSize);
      this.report(def.path, call?.endpoint ?? this.pool.endpoints[0] ?? '', call, 0, error);
      return { ok: false, error };
    }
    const deadline = this.deadlineOf(call);
    const avoid = new Set<string>();
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      const target = await this.target(call, deadline, avoid);
      if (!target.ok) {
        this.report(def.path, call?.endpoint ?? this.pool.endpoints[0] ?? '', call, attempt, target.error);
        return target;
      }
      const endpoint = target.value;
      const md = await this.metadata(def.path, deadline, call?.signal);
      if (!md.ok) return md;
      const r = await this.once(def, payload, endpoint, md.value, deadline, call?.signal);
      if (r.ok) return r;
      this.report(def.path, endpoint, call, attempt, r.error);
      if (REFRESHES_TOKEN.has(r.error.kind) && this.opts.username !== undefined && !refreshed) {
        refreshed = true;
        this.token = undefined;
        continue;
      }
      if (!this.retryable(r.error, policy, call) || attempt + 1 >= MAX_ATTEMPTS || Date.now() + RETRY_PAUSE_MS >= deadline) return r;
      avoid.add(endpoint);
      await sleep(RETRY_PAUSE_MS);
    }
  }

  /**
   * Opens a server stream on a ready endpoint (waiting for one until the deadline of `call`,
   * none by default). The caller owns the stream.
   */
  async serverStream<Req, Res>(
    def: MethodDef<Req, Res>,
    req: Req,
    call?: CallOptions,
  ): Promise<Result<{ readonly stream: ClientReadableStream<Res>; readonly endpoint: string }>> {
    const deadline = this.deadlineOf(call, undefined);
    const target = await this.target(call, deadline, new Set());
    if (!target.ok) return target;
    const md = await this.metadata(def.path, deadline, call?.signal);
    if (!md.ok) return md;
    const client = this.pool.channel(target.value);
    const stream = client.makeServerStreamRequest(def.path, def.requestSerialize, def.responseDeserialize, req, md.value, deadline === Infinity ? {} : { deadline });
    return { ok: true, value: { stream, endpoint: target.value } };
  }

  /** Opens a bidirectional stream on a ready endpoint, avoiding `avoid` when possible. */
  async bidiStream<Req, Res>(
    def: MethodDef<Req, Res> & { readonly requestSerialize: (req: Req) => Buffer },
    opts: { readonly signal?: AbortSignal; readonly requireLeader?: boolean; readonly avoid?: ReadonlySet<string>; readonly endpoint?: string },
  ): Promise<Result<{ readonly stream: ClientDuplexStream<Req, Res>; readonly endpoint: string }>> {
    const call: CallOptions = { ...(opts.signal === undefined ? {} : { signal: opts.signal }), ...(opts.endpoint === undefined ? {} : { endpoint: opts.endpoint }) };
    const target = await this.target(call, Infinity, opts.avoid ?? new Set());
    if (!target.ok) return target;
    const md = await this.metadata(def.path, Infinity, opts.signal);
    if (!md.ok) return md;
    if (opts.requireLeader === true) md.value.set('hasleader', 'true');
    const client = this.pool.channel(target.value);
    const stream = client.makeBidiStreamRequest(def.path, def.requestSerialize, def.responseDeserialize, md.value, {});
    return { ok: true, value: { stream, endpoint: target.value } };
  }

  /** Converts a stream or call failure to a ClientError (deadline and cancel as context errors). */
  errorOf(err: ServiceError, endpoint: string, signal: AbortSignal | undefined): ClientError {
    const code = toGrpcCode(err.code);
    if (code === GrpcCode.DeadlineExceeded) return deadlineExceeded('context deadline exceeded', endpoint);
    if (code === GrpcCode.Canceled && signal?.aborted === true) return canceled();
    return errorFromStatus(code, err.details ?? err.message, endpoint);
  }

  private async target(call: CallOptions | undefined, deadline: number, avoid: ReadonlySet<string>): Promise<Result<string>> {
    if (call?.endpoint === undefined) return this.pool.pick(deadline, call?.signal, avoid);
    const r = await this.pool.waitReady(call.endpoint, deadline, call.signal);
    return r.ok ? { ok: true, value: call.endpoint } : r;
  }

  /** Fetches the auth token now when credentials are configured (no-op otherwise). */
  async authenticate(deadline: number, signal: AbortSignal | undefined): Promise<Result<void>> {
    if (this.opts.username === undefined || this.token !== undefined) return { ok: true, value: undefined };
    const r = await this.unary(AuthService.authenticate, { name: this.opts.username, password: this.opts.password ?? '' }, 'repeatable', {
      timeoutMs: deadline === Infinity ? 0 : Math.max(1, deadline - Date.now()),
      ...(signal === undefined ? {} : { signal }),
    });
    if (!r.ok) return r;
    this.token = r.value.token;
    return { ok: true, value: undefined };
  }

  private async metadata(path: string, deadline: number, signal: AbortSignal | undefined): Promise<Result<Metadata>> {
    const md = new Metadata();
    if (this.opts.username === undefined || path === AuthService.authenticate.path) return { ok: true, value: md };
    const auth = await this.authenticate(deadline, signal);
    if (!auth.ok) return auth;
    if (this.token !== undefined) md.set('token', this.token);
    return { ok: true, value: md };
  }

  private once<Req, Res>(def: MethodDef<Req, Res>, payload: Buffer, endpoint: string, md: Metadata, deadline: number, signal: AbortSignal | undefined): Promise<Result<Res>> {
    return new Promise((resolve) => {
      if (signal?.aborted === true) return resolve({ ok: false, error: canceled() });
      const client = this.pool.channel(endpoint);
      const callOpts = deadline === Infinity ? {} : { deadline };
      const c = client.makeUnaryRequest(def.path, identity, def.responseDeserialize, payload, md, callOpts, (err, res) => {
        signal?.removeEventListener('abort', onAbort);
        if (err !== null) resolve({ ok: false, error: this.errorOf(err, endpoint, signal) });
        else if (res === undefined) resolve({ ok: false, error: errorFromStatus(GrpcCode.Internal, 'empty response', endpoint) });
        else resolve({ ok: true, value: res });
      });
      const onAbort = (): void => c.cancel();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private retryable(e: ClientError, policy: RetryPolicy, call: CallOptions | undefined): boolean {
    if (call?.endpoint !== undefined || e.code !== GrpcStatus.UNAVAILABLE) return false;
    const fromEtcd = e.details.startsWith('etcdserver:');
    return policy === 'repeatable' || !fromEtcd;
  }

  private report(method: string, endpoint: string, call: CallOptions | undefined, attempt: number, error: ClientError): void {
    this.opts.logger.attemptFailed?.({ method, endpoint, pinned: call?.endpoint !== undefined, attempt, error });
  }
}
