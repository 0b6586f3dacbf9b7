/**
 * Builds a member's auth pieces from its backend and flags: the auth store (loaded from the
 * `auth*` buckets), the token provider (`--auth-token`, `--auth-token-ttl`), bcrypt
 * (`--bcrypt-cost`, hashes written with Go's `$2a$` prefix), the edge gate and the ports the
 * apply step and the auth service use.
 */
import { readFileSync } from 'node:fs';
import bcrypt from 'bcryptjs';
import type { ResponseHeader } from '../../proto/gen/etcd/rpc.js';
import type { AuthApplyPort } from '../apply/auth-apply.js';
import type { PasswordHasher } from '../api/service/auth-service.js';
import { AuthStore } from '../auth/auth-store.js';
import { AuthGate } from '../auth/gate.js';
import { JwtTokens, parseJwtOptions } from '../auth/jwt-tokens.js';
import { initialOps, loadAuthSnapshot } from '../auth/load.js';
import type { LeaseKeys } from '../auth/requirements.js';
import { SimpleTokens } from '../auth/simple-tokens.js';
import type { Tokens } from '../auth/tokens.js';
import type { Backend } from '../storage/backend.js';
import type { VersionProfile } from '../version/profile.js';

export interface AuthParts {
  readonly store: AuthStore;
  readonly tokens: Tokens;
  readonly passwords: PasswordHasher;
  readonly apply: AuthApplyPort;
}

export interface AuthFlags {
  readonly authToken: string;
  readonly authTokenTtlSeconds: number;
  readonly bcryptCost: number;
}

/** Loads the auth store (writing the initial revision record on a new backend). Throws on bad jwt options. */
export async function openAuth(backend: Backend, flags: AuthFlags, now: () => number): Promise<AuthParts> {
  const snapshot = await loadAuthSnapshot(backend);
  const init = initialOps(snapshot);
  if (init.length > 0) await backend.write(init, { sync: true });
  const store = new AuthStore(snapshot);
  const tokens = tokensFor(flags, now);
  const cost = flags.bcryptCost >= 4 && flags.bcryptCost <= 31 ? flags.bcryptCost : 10;
  const passwords: PasswordHasher = {
    hash: async (password) => (await bcrypt.hash(password, cost)).replace(/^\$2b\$/, '$2a$'),
    compare: (password, hash) => bcrypt.compare(password, hash),
  };
  return { store, tokens, passwords, apply: { store, tokens: tokens.kind === 'simple' ? tokens.simple : undefined } };
}

function tokensFor(flags: AuthFlags, now: () => number): Tokens {
  if (flags.authToken.split(',')[0] !== 'jwt') return { kind: 'simple', simple: new SimpleTokens((flags.authTokenTtlSeconds || 300) * 1000, now) };
  const opts = parseJwtOptions(flags.authToken, (path) => readFileSync(path));
  if (typeof opts === 'string') throw new Error(`--auth-token: ${opts}`);
  return { kind: 'jwt', jwt: new JwtTokens(opts, now) };
}

/** Re-reads the auth store after a snapshot image replaced the backend. */
export async function reloadAuth(store: AuthStore, backend: Backend): Promise<void> {
  store.replace(await loadAuthSnapshot(backend));
}

export function authGate(
  parts: AuthParts,
  profile: VersionProfile,
  leaseKeys: LeaseKeys,
  clientCertAuth: boolean,
  header: () => ResponseHeader,
  catchUp: () => Promise<void>,
): AuthGate {
  const requirements = { leaseTimeToLiveKeys: profile.authLeaseTimeToLiveKeys };
  return new AuthGate({ store: parts.store, tokens: parts.tokens, leaseKeys, requirements, clientCertAuth, header, catchUp });
}
