/**
 * The member's token provider, one of two kinds (`--auth-token`), and how a token becomes an
 * identity. Simple tokens carry no revision: their identity is as of the store's current
 * revision. JWT tokens carry the revision they were issued at.
 */
import type { AuthInfo, AuthStore } from './auth-store.js';
import type { JwtTokens } from './jwt-tokens.js';
import type { SimpleTokens } from './simple-tokens.js';

export type Tokens = { readonly kind: 'simple'; readonly simple: SimpleTokens } | { readonly kind: 'jwt'; readonly jwt: JwtTokens };

/** The identity of `token`, or undefined when the token is unknown, expired or forged. */
export async function identityOf(tokens: Tokens, store: AuthStore, token: string): Promise<AuthInfo | undefined> {
  if (tokens.kind === 'jwt') return tokens.jwt.verify(token);
  const username = tokens.simple.lookup(token);
  return username === undefined ? undefined : { username, revision: store.revision };
}
