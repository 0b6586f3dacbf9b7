/**
 * The caller's identity, carried on the decoded request message from the edge that checked it
 * to the service that proposes it (a non-enumerable symbol property, as api/raw-request.ts
 * carries the raw bytes: invisible to spreads, JSON and deep equality).
 *
 * Only the auth gate attaches it, and only while auth is enabled: with auth disabled nothing
 * is attached, the proposal's header carries no identity and the apply step checks nothing.
 *
 * `authRevision` is the member's current auth revision (a read compares it after reading, as
 * etcd's doSerialize does).
 */
import type { AuthInfo } from './auth-store.js';

export interface RequestAuth {
  readonly info: AuthInfo;
  readonly authRevision: () => number;
}

const AUTH = Symbol('kvstore.requestAuth');

/** Records the caller's identity on `message`; returns `message`. */
export function keepAuth<T extends object>(message: T, auth: RequestAuth): T {
  Object.defineProperty(message, AUTH, { value: auth, enumerable: false, configurable: true });
  return message;
}

/** The identity the edge attached to `message`, if any. */
export function authOf(message: object): RequestAuth | undefined {
  return (message as { [AUTH]?: RequestAuth })[AUTH];
}
