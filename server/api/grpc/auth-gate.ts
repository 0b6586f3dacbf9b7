/**
 * The edge's auth hook. With auth disabled (or no gate configured) `gateOf` returns
 * undefined and the adapters call the service directly — one property read and one boolean
 * per call. With auth enabled, the caller is taken from the call (metadata `token`, else
 * `authorization`; the verified client certificate's common name) and the gate checks it.
 */
import type { Metadata, ServerUnaryCall } from '@grpc/grpc-js';
import type { AuthGate, Caller } from '../../auth/gate.js';
import { grpcClientCommonName } from '../../tls/client-identity.js';
import type { EdgeContext } from './context.js';

/** The gate to consult for this call, or undefined when nothing is to be checked. */
export function gateOf(ctx: EdgeContext): AuthGate | undefined {
  const gate = ctx.auth;
  return gate !== undefined && gate.active() ? gate : undefined;
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
