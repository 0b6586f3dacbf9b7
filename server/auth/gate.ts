/**
 * The auth check every client call passes while auth is enabled (the edges call it; with
 * auth disabled `active()` is false and they skip it entirely).
 *
 * Identity (as etcd's AuthInfoFromCtx): the call's token (gRPC metadata `token`, else
 * `authorization`) — an unknown, expired or forged token fails with InvalidAuthToken; with
 * no token and `--client-cert-auth`, the verified client certificate's common name is the
 * user; otherwise the call is anonymous (checks then fail with UserEmpty).
 *
 * Then every requirement of the call (requirements.ts) is checked in order against the
 * member's applied auth state; the first failure is the answer. Calls whose path needs
 * nothing are not even identified. A call that passes carries its identity on the request
 * message (request-auth.ts) to the proposal header, so the apply step checks it again.
 */
import type { ResponseHeader, WatchCreateRequest } from '../../proto/gen/etcd/rpc.js';
import type { DomainError } from '../errors/domain-error.js';
import type { AuthInfo, AuthStore } from './auth-store.js';
import { requirementsOf, TOKEN_RESOLVED, watchNeeds, type LeaseKeys, type Need, type RequirementOptions } from './requirements.js';
import { identityOf, type Tokens } from './tokens.js';
import { checkNeeds } from './check-needs.js';
import { keepAuth } from './request-auth.js';

/** What an edge knows about the caller. */
export interface Caller {
  readonly token?: string;
  /** Common name of the verified client certificate, when there is one. */
  readonly commonName?: string;
}

export type Identity = { readonly ok: true; readonly info: AuthInfo | undefined } | { readonly ok: false; readonly error: DomainError };

export interface AuthGateDeps {
  readonly store: AuthStore;
  readonly tokens: Tokens;
  readonly leaseKeys: LeaseKeys;
  readonly requirements: RequirementOptions;
  /** `--client-cert-auth`: a certificate's common name identifies a caller without token. */
  readonly clientCertAuth: boolean;
  /**
   * Brings this member's applied state up to the leader's commit index (a read barrier). An
   * unknown simple token is looked up once more after it: the Authenticate entry that made
   * it may not have been applied here yet (etcd waits for the index named in the token).
   */
  readonly catchUp?: () => Promise<void>;
  /** The member's current response header (for answers the edge builds itself). */
  readonly header: () => ResponseHeader;
}

export class AuthGate {
  readonly #d: AuthGateDeps;

  constructor(deps: AuthGateDeps) {
    this.#d = deps;
  }

  header(): ResponseHeader {
    return this.#d.header();
  }

  /** False while auth is disabled: then only a token sent with a call is looked at. */
  active(): boolean {
    return this.#d.store.enabled;
  }

  async identify(caller: Caller): Promise<Identity> {
    const { store, tokens } = this.#d;
    if (caller.token !== undefined) {
      let info = await identityOf(tokens, store, caller.token);
      if (info === undefined && tokens.kind === 'simple' && this.#d.catchUp) {
        await this.#d.catchUp();
        info = await identityOf(tokens, store, caller.token);
      }
      return info === undefined ? { ok: false, error: { kind: 'InvalidAuthToken' } } : { ok: true, info };
    }
    if (this.#d.clientCertAuth && caller.commonName) return { ok: true, info: { username: caller.commonName, revision: store.revision } };
    return { ok: true, info: undefined };
  }

  /**
   * Undefined when the call may proceed, else the error to answer with. While auth is
   * disabled only a token sent with the call is looked at (etcd resolves it all the same).
   */
  async check(path: string, request: unknown, caller: Caller): Promise<DomainError | undefined> {
    if (!this.active()) return caller.token === undefined ? undefined : this.#tokenOnly(path, caller.token);
    const needs = requirementsOf(path, request, this.#d.leaseKeys, this.#d.requirements);
    if (needs === undefined) return caller.token === undefined ? undefined : this.#tokenOnly(path, caller.token);
    const id = await this.identify(caller);
    const e = id.ok ? this.#verify(needs, id.info) : id.error;
    if (e === undefined) {
      if (id.ok && id.info !== undefined && typeof request === 'object' && request !== null) this.#attach(request, id.info);
      return undefined;
    }
    return needs.some((n) => n.kind === 'admin' && n.raw) ? rawAuthError(e) : e;
  }

  /** A call that checks nothing but whose token etcd resolves (TOKEN_RESOLVED): an unknown token fails. */
  async #tokenOnly(path: string, token: string): Promise<DomainError | undefined> {
    const raw = TOKEN_RESOLVED[path];
    if (raw === undefined) return undefined;
    const id = await this.identify({ token });
    if (id.ok) return undefined;
    return raw ? rawAuthError(id.error) : id.error;
  }

  /** Carries the identity to the proposal (its header), for the check at apply (request-auth.ts). */
  #attach(request: object, info: AuthInfo): void {
    const store = this.#d.store;
    keepAuth(request, { info, authRevision: () => store.revision });
  }

  /** The check of one watch create request (read on its range; only the token while auth is disabled). */
  async checkWatch(create: WatchCreateRequest, caller: Caller): Promise<DomainError | undefined> {
    if (!this.active()) {
      if (caller.token === undefined) return undefined;
      const id = await this.identify({ token: caller.token });
      return id.ok ? undefined : id.error;
    }
    const id = await this.identify(caller);
    if (!id.ok) return id.error;
    return this.#verify([watchNeeds(create)], id.info);
  }

  #verify(needs: readonly Need[], info: AuthInfo | undefined): DomainError | undefined {
    return checkNeeds(this.#d.store, needs, info);
  }
}

/** etcd's auth errors as its auth package words them (sent unconverted by its Maintenance server). */
const RAW: Partial<Record<DomainError['kind'], string>> = {
  PermissionDenied: 'auth: permission denied',
  UserEmpty: 'auth: user name is empty',
  UserNotFound: 'auth: user not found',
  InvalidAuthToken: 'auth: invalid auth token',
  AuthOldRevision: 'auth: revision in header is old',
};

function rawAuthError(e: DomainError): DomainError {
  const message = RAW[e.kind];
  return message === undefined ? e : { kind: 'Internal', message };
}
