/**
 * The Lease API: grant, revoke, timeToLive, leases, and keep-alive (a stream that renews the
 * lease every TTL/3 and follows the members: it reopens on another endpoint after
 * Unavailable). `keepAliveOnce` renews once and fails with LeaseNotFound for an expired lease.
 */
import type { ServiceError } from '@grpc/grpc-js';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  LeaseService,
  type LeaseGrantResponse,
  type LeaseKeepAliveResponse,
  type LeaseLeasesResponse,
  type LeaseRevokeResponse,
  type LeaseTimeToLiveResponse,
} from '../../proto/gen/etcd/rpc.js';
import { canceled, errorFromStatus, type ClientError } from './errors.js';
import { ETCD_ERROR_MESSAGES } from './etcd-errors.js';
import { GrpcCode } from './grpc-codes.js';
import type { CallOptions, Invoker } from './invoker.js';
import type { Result } from './result.js';
import { cancelOnAbort, reopenPauseMs, resumable } from './stream-util.js';

export interface KeepAliveOptions {
  readonly signal?: AbortSignal;
}

export interface Lease {
  /** `id` 0 lets the server choose. */
  grant(ttlSeconds: bigint, opts?: { readonly id?: bigint } & CallOptions): Promise<Result<LeaseGrantResponse>>;
  revoke(id: bigint, opts?: CallOptions): Promise<Result<LeaseRevokeResponse>>;
  timeToLive(id: bigint, opts?: { readonly keys?: boolean } & CallOptions): Promise<Result<LeaseTimeToLiveResponse>>;
  leases(opts?: CallOptions): Promise<Result<LeaseLeasesResponse>>;
  /**
   * Renews until the signal aborts or the lease is gone: yields each answer; an answer with
   * TTL ≤ 0 (expired or revoked) is the last item; a failure that cannot be resumed is yielded
   * as an error and ends the iteration.
   */
  keepAlive(id: bigint, opts?: KeepAliveOptions): AsyncIterable<Result<LeaseKeepAliveResponse>>;
  keepAliveOnce(id: bigint, opts?: CallOptions): Promise<Result<LeaseKeepAliveResponse>>;
}

export function makeLease(inv: Invoker): Lease {
  return {
    grant: (ttl, opts = {}) => inv.unary(LeaseService.leaseGrant, { TTL: ttl, ID: opts.id ?? 0n }, 'mutable', opts),
    revoke: (id, opts = {}) => inv.unary(LeaseService.leaseRevoke, { ID: id }, 'mutable', opts),
    timeToLive: (id, opts = {}) => inv.unary(LeaseService.leaseTimeToLive, { ID: id, keys: opts.keys ?? false }, 'repeatable', opts),
    leases: (opts = {}) => inv.unary(LeaseService.leaseLeases, {}, 'repeatable', opts),
    keepAlive: (id, opts = {}) => keepAliveLoop(inv, id, opts.signal),
    keepAliveOnce: (id, opts = {}) => keepAliveOnce(inv, id, opts),
  };
}

async function* keepAliveLoop(inv: Invoker, id: bigint, signal: AbortSignal | undefined): AsyncGenerator<Result<LeaseKeepAliveResponse>> {
  let avoid = new Set<string>();
  for (let tries = 0; ; tries++) {
    const opened = await inv.bidiStream(LeaseService.leaseKeepAlive, { requireLeader: true, avoid, ...(signal === undefined ? {} : { signal }) });
    if (!opened.ok) {
      if (opened.error.kind !== 'Canceled') yield opened;
      return;
    }
    const { stream, endpoint } = opened.value;
    const detach = cancelOnAbort(stream, signal);
    let timer: NodeJS.Timeout | undefined;
    try {
      stream.write({ ID: id });
      for await (const res of stream as AsyncIterable<LeaseKeepAliveResponse>) {
        tries = 0;
        yield { ok: true, value: res };
        if (res.TTL <= 0n) return;
        clearTimeout(timer);
        timer = setTimeout(() => stream.write({ ID: id }), Math.max(500, (Number(res.TTL) * 1000) / 3));
      }
    } catch (err) {
      if (signal?.aborted === true) return;
      const e = inv.errorOf(err as ServiceError, endpoint, signal);
      if (!resumable(e)) {
        yield { ok: false, error: e };
        return;
      }
    } finally {
      clearTimeout(timer);
      detach();
      stream.cancel();
    }
    if (signal?.aborted === true) return;
    avoid = new Set([endpoint]);
    await sleep(reopenPauseMs(tries));
  }
}

async function keepAliveOnce(inv: Invoker, id: bigint, opts: CallOptions): Promise<Result<LeaseKeepAliveResponse>> {
  const controller = new AbortController();
  const deadline = inv.deadlineOf(opts);
  let timedOut = false;
  const timer =
    deadline === Infinity
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, Math.max(0, deadline - Date.now()));
  const onAbort = (): void => controller.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const opened = await inv.bidiStream(LeaseService.leaseKeepAlive, { signal: controller.signal, requireLeader: true, ...(opts.endpoint === undefined ? {} : { endpoint: opts.endpoint }) });
    if (!opened.ok) return timedOut ? { ok: false, error: timeoutError(opts.endpoint ?? '') } : opened;
    const { stream, endpoint } = opened.value;
    const detach = cancelOnAbort(stream, controller.signal);
    try {
      stream.write({ ID: id });
      for await (const res of stream as AsyncIterable<LeaseKeepAliveResponse>) {
        if (res.TTL <= 0n) return { ok: false, error: errorFromStatus(GrpcCode.NotFound, ETCD_ERROR_MESSAGES.LeaseNotFound, endpoint) };
        return { ok: true, value: res };
      }
      return { ok: false, error: errorFromStatus(GrpcCode.Unavailable, 'keep-alive stream closed', endpoint) };
    } catch (err) {
      if (opts.signal?.aborted === true) return { ok: false, error: canceled() };
      if (timedOut) return { ok: false, error: timeoutError(endpoint) };
      return { ok: false, error: inv.errorOf(err as ServiceError, endpoint, undefined) };
    } finally {
      detach();
      stream.cancel();
    }
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

function timeoutError(endpoint: string): ClientError {
  return { kind: 'DeadlineExceeded', code: GrpcCode.DeadlineExceeded, message: 'context deadline exceeded', details: 'context deadline exceeded', endpoint };
}
