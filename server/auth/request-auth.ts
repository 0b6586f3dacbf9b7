/**
 * The caller's identity, carried on the decoded request message from the edge that checked it
 * to the service that proposes it (a non-enumerable symbol property, as api/raw-request.ts
 * carries the raw bytes: invisible to spreads, JSON and deep equality).
 *
 * Only the auth gate attaches it, and only while auth is enabled: with auth disabled nothing
 * is attached, the proposal's header carries no identity and the apply step checks nothing.
 *
 * `refresh` resolves the caller's token again (etcd's raftRequest loop: a write refused at
 * apply with AuthOldRevision is proposed again with the identity as of the current auth
 * revision); `authRevision` is the member's current auth revision (a read compares it after
 * reading, as etcd's doSerialize does).
 */
import type { DomainError } from '../errors/domain-error.js';
import type { AuthInfo } from './auth-store.js';

export interface RequestAuth {
  readonly info: AuthInfo;
  readonly refresh: () => Promise<{ readonly ok: true; readonly info: AuthInfo | undefined } | { readonly ok: false; readonly error: DomainError }>;
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
