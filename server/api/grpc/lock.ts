/**
 * v3lockpb.Lock adapter: Lock and Unlock, each run by the mutex recipe (api/service/
 * lock-service.ts) on the member's services as the call's caller sees them (auth-gate.ts
 * `servicesOfCaller`: with auth enabled every inner call is checked against the caller's
 * token or client certificate, as etcd's v3lock server calls its client with the caller's
 * context). A Lock that waits ends, and deletes its key, when the client cancels the call.
 */
import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import { LockService as LockDef } from '../../../proto/gen/etcd/lock.js';
import type { Services } from '../services.js';
import { createLockService } from '../service/lock-service.js';
import { servicesOfCaller } from './auth-gate.js';
import { callSignal } from './call-signal.js';
import type { EdgeContext } from './context.js';
import { unaryWithCall } from './unary.js';

export function lockHandlers(ctx: EdgeContext, services: Services): UntypedServiceImplementation {
  return {
    lock: unaryWithCall(ctx, LockDef.lock, (r, call) => createLockService(servicesOfCaller(ctx, services, call)).lock(r, callSignal(call))),
    unlock: unaryWithCall(ctx, LockDef.unlock, (r, call) => createLockService(servicesOfCaller(ctx, services, call)).unlock(r)),
  } satisfies Record<keyof typeof LockDef, unknown>;
}
