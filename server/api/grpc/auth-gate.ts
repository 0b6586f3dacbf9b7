/**
 * The edge's auth hook. With auth disabled (or no gate configured) `gateOf` returns
 * undefined for a call without token and the adapters call the service directly — one
 * boolean and two metadata lookups per call. With auth enabled, the caller is taken from the call (metadata `token`, else
 * `authorization`; the verified client certificate's common name) and the gate checks it.
 */
import type { Metadata, ServerUnaryCall } from '@grpc/grpc-js';
import type { AuthGate, Caller } from '../../auth/gate.js';
import { callerServices } from '../caller-services.js';
import type { Services } from '../services.js';
import { grpcClientCommonName } from '../../tls/client-identity.js';
import type { EdgeContext, MetadataReader } from './context.js';

/**
 * The gate to consult for this call, or undefined when nothing is to be checked: while auth
 * is disabled, only a call that carries a token is looked at (etcd resolves it all the same).
 */
export function gateOf(ctx: EdgeContext, metadata: MetadataReader): AuthGate | undefined {
  const gate = ctx.auth;
  if (gate === undefined) return undefined;
  if (gate.active()) return gate;
  return metadata.get('token').length > 0 || metadata.get('authorization').length > 0 ? gate : undefined;
}

function firstString(metadata: Metadata, key: string): string | undefined {
  const v = metadata.get(key)[0];
  return v === undefined ? undefined : String(v);
}

type SurfaceCall = ServerUnaryCall<unknown, unknown>;

/** The caller of a call, for the gate. */
export function callerOf(call: Pick<SurfaceCall, 'metadata'> & Partial<Pick<SurfaceCall, 'getAuthContext'>>): Caller {
  const token = firstString(call.metadata, 'token') ?? firstString(call.metadata, 'authorization');
  return { token, commonName: grpcClientCommonName(call) };
}

/**
 * The member's services as this call's caller sees them (api/caller-services.ts): for the
 * services that run a recipe on the member's own calls (Lock, Election), each inner call is
 * checked as etcd's in-process client checks it with the caller's context.
 */
export function servicesOfCaller(ctx: EdgeContext, services: Services, call: Pick<SurfaceCall, 'metadata'> & Partial<Pick<SurfaceCall, 'getAuthContext'>>): Services {
  if (ctx.auth === undefined) return services;
  const caller = callerOf(call);
  return callerServices(ctx.auth, services, () => caller);
}
