/**
 * JWT tokens (`--auth-token=jwt,pub-key=<file>,priv-key=<file>,sign-method=<alg>[,ttl=<dur>]`).
 *
 * A token is a JWT signed with `sign-method` (RS256/384/512, PS256/384/512, ES256/384/512,
 * HS256/384/512; HS* use the priv-key file's bytes as the secret) carrying the claims
 * `username`, `revision` (the auth revision when it was issued) and `exp` (Unix seconds,
 * issue time + ttl, default 5 m). Verification needs only the public key (or the secret);
 * a member given only `pub-key` verifies but cannot issue (Authenticate then fails).
 * Tokens are not recorded anywhere: any member with the key accepts them until `exp`,
 * and a token whose revision is older than the store's is refused as stale (the client
 * authenticates again).
 */
import { createPrivateKey, createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { AuthInfo } from './auth-store.js';

export interface JwtOptions {
  readonly signMethod: string;
  /** PEM text of the public key (RSA/EC); absent: derived from the private key. */
  readonly publicKey?: Buffer;
  /** PEM text of the private key (RSA/EC), or the HMAC secret. */
  readonly privateKey?: Buffer;
  readonly ttlMs: number;
}

const METHODS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'HS256', 'HS384', 'HS512'];
const DEFAULT_TTL_MS = 5 * 60 * 1000;

/** Parses the option string after `jwt,`; file reading is the caller's (readFile). */
export function parseJwtOptions(spec: string, readFile: (path: string) => Buffer): JwtOptions | string {
  const opts = new Map<string, string>();
  for (const part of spec.split(',').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0) return `invalid auth token option ${JSON.stringify(part)}`;
    opts.set(part.slice(0, eq), part.slice(eq + 1));
  }
  const unknown = [...opts.keys()].filter((k) => !['pub-key', 'priv-key', 'sign-method', 'ttl'].includes(k));
  if (unknown.length > 0) return `unknown auth token options: ${unknown.join(', ')}`;
  const signMethod = opts.get('sign-method') ?? '';
  if (!METHODS.includes(signMethod)) return 'auth: invalid auth signature method';
  const ttl = opts.get('ttl');
  const ttlMs = ttl === undefined || ttl === '' ? DEFAULT_TTL_MS : parseDurationMs(ttl);
  if (ttlMs === undefined) return `invalid jwt ttl ${JSON.stringify(ttl)}`;
  const pub = opts.get('pub-key');
  const priv = opts.get('priv-key');
  const publicKey = pub ? readFile(pub) : undefined;
  const privateKey = priv ? readFile(priv) : undefined;
  if (signMethod.startsWith('HS') ? !privateKey : !publicKey && !privateKey) return 'auth: missing key data';
  return { signMethod, publicKey, privateKey, ttlMs };
}

function parseDurationMs(text: string): number | undefined {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let rest = text;
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/.exec(rest);
    if (m === null) return undefined;
    total += Number(m[1]) * units[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return total;
}

export class JwtTokens {
  readonly #alg: string;
  readonly #signKey: KeyObject | undefined;
  readonly #verifyKey: KeyObject;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(opts: JwtOptions, now: () => number) {
    this.#alg = opts.signMethod;
    this.#ttlMs = opts.ttlMs;
    this.#now = now;
    if (opts.signMethod.startsWith('HS')) {
      this.#signKey = createSecretKey(opts.privateKey!);
      this.#verifyKey = this.#signKey;
    } else {
      this.#signKey = opts.privateKey ? createPrivateKey(opts.privateKey) : undefined;
      this.#verifyKey = opts.publicKey ? createPublicKey(opts.publicKey) : createPublicKey(this.#signKey!);
    }
  }

  /** Whether this member can issue tokens (it has the private key). */
  get canSign(): boolean {
    return this.#signKey !== undefined;
  }

  async sign(username: string, revision: number): Promise<string> {
    if (!this.#signKey) throw new Error('auth: token signing attempted with verify-only key');
    return new SignJWT({ username, revision })
      .setProtectedHeader({ alg: this.#alg })
      .setExpirationTime(Math.floor((this.#now() + this.#ttlMs) / 1000))
      .sign(this.#signKey);
  }

  /** The token's identity, or undefined when it does not verify or has expired. */
  async verify(token: string): Promise<AuthInfo | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#verifyKey, {
        algorithms: [this.#alg],
        currentDate: new Date(this.#now()),
      });
      if (typeof payload.username !== 'string' || typeof payload.revision !== 'number') return undefined;
      return { username: payload.username, revision: payload.revision };
    } catch {
      return undefined;
    }
  }
}
