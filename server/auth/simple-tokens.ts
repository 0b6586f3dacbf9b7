/**
 * Simple tokens (`--auth-token=simple`, the default): opaque strings the cluster hands out
 * on Authenticate. The proposing member picks the token; every member records it when it
 * applies the Authenticate entry, so a token works on any member that applied it.
 *
 * Lifetime (as etcd): a token lives `ttlMs` (`--auth-token-ttl`, 300 s) from its assignment
 * on this member; each successful lookup on this member restarts it. Deleting a user or
 * changing its password drops its tokens; disabling auth drops all of them. Expiry is read
 * lazily from the clock passed in (no timers); `assign` also sweeps expired tokens.
 *
 * Token text: 16 random ASCII letters, '.', a decimal number (FORMAT.md).
 */

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LENGTH = 16;

/** A new token text from a source of random bytes (crypto.randomBytes at the edge). */
export function newSimpleToken(randomBytes: (n: number) => Buffer, suffix: number | bigint): string {
  // 52 letters: reject bytes >= 208 (4 × 52) so each letter is equally likely.
  let out = '';
  while (out.length < LENGTH) {
    for (const b of randomBytes(LENGTH * 2)) {
      if (b >= 208) continue;
      out += LETTERS[b % 52];
      if (out.length === LENGTH) break;
    }
  }
  return `${out}.${suffix}`;
}

export class SimpleTokens {
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #tokens = new Map<string, { readonly user: string; deadline: number }>();

  constructor(ttlMs: number, now: () => number) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  assign(token: string, user: string): void {
    const now = this.#now();
    for (const [t, e] of this.#tokens) if (e.deadline < now) this.#tokens.delete(t);
    this.#tokens.set(token, { user, deadline: now + this.#ttlMs });
  }

  /** The token's user, restarting its lifetime; undefined when unknown or expired. */
  lookup(token: string): string | undefined {
    const e = this.#tokens.get(token);
    if (e === undefined) return undefined;
    const now = this.#now();
    if (e.deadline < now) {
      this.#tokens.delete(token);
      return undefined;
    }
    e.deadline = now + this.#ttlMs;
    return e.user;
  }

  invalidateUser(user: string): void {
    for (const [t, e] of this.#tokens) if (e.user === user) this.#tokens.delete(t);
  }

  clear(): void {
    this.#tokens.clear();
  }

  get size(): number {
    return this.#tokens.size;
  }
}
